import { sha1Hex } from '../text/sha1.js';
import { isRecord } from '../protocol/message-guards.js';

/** Serialized arguments (or any kept value) longer than this are kept as their length and a digest, not as values. */
const MAX_KEPT_ARGUMENTS = 16 * 1024;
/** A kept string param longer than this is kept as its head and a digest. */
const MAX_KEPT_STRING = 1024;
/** A kept value nested deeper than this is kept as its length and digest: the judges read values by recursion. */
const MAX_KEPT_DEPTH = 64;

/** The params the judges read: a tool's name and arguments, the progress token, a cancellation's id, progress values. */
const KEPT_PARAMS = ['name', 'requestId', 'progressToken', 'progress', 'total', 'protocolVersion'] as const;

function paramEssentials(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_PARAMS) {
    const value = params[key];
    if (typeof value === 'string') kept[key] = value.length > MAX_KEPT_STRING ? `${value.slice(0, 64)}…#${sha1Hex(value)}` : value;
    else if (typeof value === 'number' || typeof value === 'boolean') kept[key] = value;
  }
  const meta = params['_meta'];
  if (isRecord(meta) && 'progressToken' in meta) kept['_meta'] = { progressToken: keptValue(meta['progressToken']) };
  const args = params['arguments'];
  if (args !== undefined) kept['arguments'] = keptValue(args);
  return kept;
}

/** How deep `json` (valid JSON text) nests its arrays and objects; one pass, no recursion. */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const code = json.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/** A value as the judges keep it (a call's arguments, an id): whole, or its length and digest when long or deep. */
function keptValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  let serialized: string;
  try {
    serialized = JSON.stringify(value);
  } catch {
    // Nested past the call stack (a hostile message parses, but cannot be written again): nothing to compare it by.
    return { size: -1, digest: 'nested too deep to serialize' };
  }
  return serialized.length > MAX_KEPT_ARGUMENTS || nestingDepth(serialized) > MAX_KEPT_DEPTH
    ? { size: serialized.length, digest: sha1Hex(serialized) }
    : value;
}

/**
 * What the judges read of a message, and no more: ids, methods, the params the judges read (a tool call's
 * arguments whole up to 16 KiB, else their size and digest), of results only the negotiated version and
 * the tools' names and annotations, of errors the code. A relay judging a long session keeps this, not the payloads.
 */
export function sessionEssentials(message: unknown): unknown {
  if (Array.isArray(message)) return message.map(sessionEssentials);
  if (!isRecord(message)) return message;
  const kept: Record<string, unknown> = {};
  if ('id' in message) kept['id'] = keptValue(message['id']);
  if (typeof message['method'] === 'string') {
    kept['method'] = message['method'];
    const params = message['params'];
    if (isRecord(params)) kept['params'] = paramEssentials(params);
  }
  if ('result' in message) {
    const result = message['result'];
    const essentials: Record<string, unknown> = {};
    if (isRecord(result)) {
      if ('protocolVersion' in result) essentials['protocolVersion'] = keptValue(result['protocolVersion']);
      if (Array.isArray(result['tools']))
        essentials['tools'] = result['tools'].map((tool: unknown) =>
          isRecord(tool)
            ? { name: keptValue(tool['name']), ...(isRecord(tool['annotations']) ? { annotations: keptValue(tool['annotations']) } : {}) }
            : null,
        );
    }
    kept['result'] = essentials;
  }
  if ('error' in message)
    kept['error'] = isRecord(message['error']) ? { code: keptValue(message['error']['code']) } : keptValue(message['error']);
  return kept;
}
