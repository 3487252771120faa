import { fact } from '../spec/revision-facts.js';
import { isSpecVersion, type SpecVersion } from '../spec/revisions.js';
import { META_KEYS } from '../protocol/meta-keys.js';
import type { JsonObject } from './json-rpc-replies.js';

/** The revision a request's per-request envelope names (`_meta`), where the revision has one. */
export function envelopeRevision(message: unknown): SpecVersion | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const named = meta?.[META_KEYS.protocolVersion];
  return isSpecVersion(named) && fact(named, 'request-metadata').value === 'per-request-envelope' ? named : undefined;
}

/**
 * A message of the server as its session's revision needs it: a result names its kind, and the server in its
 * `_meta`, where the revision asks for them. Unchanged before a revision is known.
 */
export function shapedForRevision(
  message: JsonObject,
  revision: SpecVersion | undefined,
  serverInfo: { readonly name: string; readonly version: string },
): JsonObject {
  const result = message['result'];
  if (revision === undefined || typeof result !== 'object' || result === null || Array.isArray(result)) return message;
  let shaped = result as JsonObject;
  if (fact(revision, 'result-type').value === 'required' && !('resultType' in shaped)) shaped = { ...shaped, resultType: 'complete' };
  const meta = shaped['_meta'];
  if (fact(revision, 'server-info').value === 'result-meta' && (meta === undefined || typeof meta === 'object'))
    shaped = { ...shaped, _meta: { ...(meta as JsonObject | undefined), [META_KEYS.serverInfo]: serverInfo } };
  return shaped === result ? message : { ...message, result: shaped };
}
