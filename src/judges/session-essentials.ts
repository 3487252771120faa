import { sha1Hex } from '../text/sha1.js';

/** Serialized arguments longer than this are kept as their length and a digest, not as values. */
const MAX_KEPT_ARGUMENTS = 16 * 1024;
/** A kept string param longer than this is kept as its head and a digest. */
const MAX_KEPT_STRING = 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
  if (isRecord(meta) && 'progressToken' in meta) kept['_meta'] = { progressToken: meta['progressToken'] };
  const args = params['arguments'];
  if (args !== undefined) {
    const serialized = JSON.stringify(args);
    kept['arguments'] = serialized.length > MAX_KEPT_ARGUMENTS ? { size: serialized.length, digest: sha1Hex(serialized) } : args;
  }
  return kept;
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
  if ('id' in message) kept['id'] = message['id'];
  if (typeof message['method'] === 'string') {
    kept['method'] = message['method'];
    const params = message['params'];
    if (isRecord(params)) kept['params'] = paramEssentials(params);
  }
  if ('result' in message) {
    const result = message['result'];
    const essentials: Record<string, unknown> = {};
    if (isRecord(result)) {
      if ('protocolVersion' in result) essentials['protocolVersion'] = result['protocolVersion'];
      if (Array.isArray(result['tools']))
        essentials['tools'] = result['tools'].map((tool: unknown) =>
          isRecord(tool) ? { name: tool['name'], ...(isRecord(tool['annotations']) ? { annotations: tool['annotations'] } : {}) } : null,
        );
    }
    kept['result'] = essentials;
  }
  if ('error' in message) kept['error'] = isRecord(message['error']) ? { code: message['error']['code'] } : message['error'];
  return kept;
}
