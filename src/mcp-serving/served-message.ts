import { fact, revisionsWhere } from '../spec/revision-facts.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../protocol/log-levels.js';
import { asRecord } from '../protocol/message-guards.js';
import { METHODS } from '../protocol/methods.js';
import type { Transport } from '../protocol/transports.js';
import { errorReply, type JsonObject, resultReply } from './json-rpc-replies.js';
import { ENVELOPE_REVISIONS, type McpHeaders, type Refusal, readEnvelope } from './request-envelope.js';

/**
 * What an MCP server of mcprely does with one message of its client, on either revision it speaks: the handshake
 * (`initialize`, or the stateless revision's per-request envelope and discovery), ping, logging/setLevel, tools/list,
 * and a tools/call handed to the server's own tools. Pure: no clock, no I/O; the transports carry the answers.
 */

/** Where a message came from: its transport, over HTTP its MCP headers, over stdio the revision its session speaks. */
export interface Arrival {
  readonly transport: Transport;
  readonly headers?: McpHeaders;
  readonly sessionRevision?: SpecVersion;
}

/** A tools/call to start: the request's id, the arguments, and the progress token it carried. */
export interface CallRequest {
  readonly kind: 'call';
  readonly id: string | number;
  readonly args: Readonly<Record<string, unknown>>;
  readonly token?: string | number;
}

/** An answer now (and, for a handshake, the revision it settled). */
export interface Reply {
  readonly kind: 'reply';
  readonly message: JsonObject;
  /** The revision a handshake settled. */
  readonly revision?: SpecVersion;
  /** A request refused before its method was served (an HTTP server answers it with that refusal's status). */
  readonly refusal?: Refusal;
  /** The session's minimum log level, as logging/setLevel set it. */
  readonly logLevel?: LogLevel;
}

/**
 * What one message asks of the server: an answer now, a tool call to start (`Call`, the server's own shape), a
 * cancellation, or nothing (a notification or a response of the client).
 */
export type Served<Call extends { readonly kind: 'call' }> =
  | Reply
  | Call
  | { readonly kind: 'cancel'; readonly requestId: unknown }
  | { readonly kind: 'none' };

/** A server's own part: who it is, what it declares, its tools, and how it starts a call of one. */
export interface ToolServer<Call extends { readonly kind: 'call' }> {
  readonly info: { readonly name: string; readonly version: string };
  readonly capabilities: JsonObject;
  /** The caching hints a cacheable result carries, where the revision has them. */
  readonly cacheHints: JsonObject;
  /** The tools as `tools/list` gives them on `transport`. */
  tools(transport: Transport): JsonObject[];
  /** A tools/call: the call to start, or an answer now (an unknown tool, arguments it cannot take). */
  call(id: string | number, params: JsonObject, transport: Transport, logLevel?: LogLevel): Reply | Call;
}

const INITIALIZE_REVISIONS = revisionsWhere('handshake', (value) => value === METHODS.initialize);

/** The revision `initialize` settles: the one the client asks for when the server speaks it, else the most deployed. */
function initializeRevision(asked: unknown): SpecVersion {
  return isSpecVersion(asked) && INITIALIZE_REVISIONS.includes(asked) ? asked : MOST_DEPLOYED_REVISION;
}

/** The caching hints a result of `method` carries on `revision` (none where the revision has no caching). */
function cacheHints(server: ToolServer<{ kind: 'call' }>, revision: SpecVersion, method: string): JsonObject {
  return fact(revision, 'cacheable-results').value.includes(method) ? { ...server.cacheHints } : {};
}

/** The progress token a request's `_meta` carries, if any. */
export function progressToken(params: JsonObject): string | number | undefined {
  const token = asRecord(params['_meta'])?.['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** A request of a revision with a handshake: initialize, ping, logging/setLevel, the tools. */
function handshakeEraRequest<Call extends { readonly kind: 'call' }>(
  server: ToolServer<Call>,
  id: string | number,
  method: string,
  params: JsonObject,
  arrival: Arrival,
): Served<Call> {
  if (method === METHODS.initialize) {
    const revision = initializeRevision(params['protocolVersion']);
    return {
      kind: 'reply',
      revision,
      message: resultReply(id, { protocolVersion: revision, capabilities: server.capabilities, serverInfo: server.info }),
    };
  }
  const revision = initializeRevision(arrival.sessionRevision ?? arrival.headers?.protocolVersion);
  if (method === METHODS.ping && fact(revision, 'ping').value) return { kind: 'reply', message: resultReply(id, {}) };
  if (method === METHODS.loggingSetLevel && fact(revision, 'logging-control').value === 'set-level') {
    const level = params['level'];
    if (!isLogLevel(level))
      return { kind: 'reply', message: errorReply(id, ERROR_CODES.invalidParams, `level is one of ${LOG_LEVELS.join(', ')}`) };
    return { kind: 'reply', message: resultReply(id, {}), logLevel: level };
  }
  if (method === METHODS.toolsList) return { kind: 'reply', message: resultReply(id, { tools: server.tools(arrival.transport) }) };
  if (method === METHODS.toolsCall) return server.call(id, params, arrival.transport);
  return { kind: 'reply', message: errorReply(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`) };
}

/** A request of a stateless revision, its envelope read: server/discover and the tools; nothing else is served. */
function statelessRequest<Call extends { readonly kind: 'call' }>(
  server: ToolServer<Call>,
  id: string | number,
  method: string,
  params: JsonObject,
  arrival: Arrival,
  revision: SpecVersion,
  logLevel: LogLevel | undefined,
): Served<Call> {
  if (method === fact(revision, 'handshake').value)
    return {
      kind: 'reply',
      revision,
      message: resultReply(id, {
        supportedVersions: [...ENVELOPE_REVISIONS],
        capabilities: server.capabilities,
        ...cacheHints(server, revision, method),
      }),
    };
  if (method === METHODS.toolsList)
    return {
      kind: 'reply',
      message: resultReply(id, { tools: server.tools(arrival.transport), ...cacheHints(server, revision, method) }),
    };
  if (method === METHODS.toolsCall) return server.call(id, params, arrival.transport, logLevel);
  return {
    kind: 'reply',
    message: errorReply(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`),
    ...(fact(revision, 'http-method-not-found').value === 'not-found' ? { refusal: 'method-not-found' as const } : {}),
  };
}

/** Reads one message of the client and says what `server` does about it (pure: no clock, no I/O). */
export function serveMessage<Call extends { readonly kind: 'call' }>(
  server: ToolServer<Call>,
  value: unknown,
  arrival: Arrival,
): Served<Call> {
  const message = asRecord(value);
  if (message === undefined) return { kind: 'reply', message: errorReply(null, ERROR_CODES.invalidRequest, 'a message is a JSON object') };
  const { id, method } = message;
  const params = asRecord(message['params']) ?? {};
  if (typeof method !== 'string') return { kind: 'none' };
  if (id === undefined || id === null) {
    if (method === METHODS.cancelled) return { kind: 'cancel', requestId: params['requestId'] };
    return { kind: 'none' };
  }
  if (typeof id !== 'string' && typeof id !== 'number')
    return { kind: 'reply', message: errorReply(null, ERROR_CODES.invalidRequest, 'a request id is a string or a number') };
  const envelope = readEnvelope(method, params, arrival.headers, arrival.sessionRevision);
  if (envelope.kind === 'handshake-era') return handshakeEraRequest(server, id, method, params, arrival);
  if (envelope.kind === 'refused')
    return { kind: 'reply', refusal: envelope.refusal, message: errorReply(id, envelope.code, envelope.message, envelope.data) };
  return statelessRequest(server, id, method, params, arrival, envelope.revision, envelope.logLevel);
}
