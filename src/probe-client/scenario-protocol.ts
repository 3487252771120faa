import { fact, revisionsWhere } from '../spec/revision-facts.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../protocol/log-levels.js';
import { ENVELOPE_REVISIONS, type McpHeaders, type Refusal, readEnvelope } from './request-envelope.js';
import { type Scenario, SCENARIOS, scenarioNamed } from './scenarios.js';
import { asRecord } from '../protocol/message-guards.js';
import { METHODS } from '../protocol/methods.js';
import type { Transport } from '../protocol/transports.js';

/** The server's name and version: in the `initialize` result, or in each result's `_meta` where the revision puts it there. */
export const SERVER_INFO = { name: 'mcprely-probe-client', version: '1' } as const;

/**
 * What the server declares on every revision: tools (the scenarios) and logging (a dropped stream's first event is a
 * log message, where the client's level lets it through).
 */
export const SERVER_CAPABILITIES = { tools: {}, logging: {} } as const;

/**
 * The caching hints of a cacheable result. The scenarios never change while the server runs and are the same for every
 * caller (public), but a TTL of 0 ("immediately stale") keeps a client fetching them whenever it would without a cache:
 * the requests a client sends are what is judged.
 */
export const CACHE_HINTS = { ttlMs: 0, cacheScope: 'public' } as const;

/** Where a message came from: its transport, over HTTP its MCP headers, over stdio the revision its session speaks. */
export interface Arrival {
  readonly transport: Transport;
  readonly headers?: McpHeaders;
  readonly sessionRevision?: SpecVersion;
}

/** A JSON-RPC message as the scenario server reads it. */
export type JsonObject = Record<string, unknown>;

/**
 * What one message from the client asks of the server: an answer now (and, for a handshake, the revision it
 * settled), a scenario call to start, a cancellation, or nothing (a notification or a response of the client).
 */
export type Handled =
  | {
      readonly kind: 'reply';
      readonly message: JsonObject;
      /** The revision a handshake settled. */
      readonly revision?: SpecVersion;
      /** A request refused before its method was served (the HTTP server answers it with that refusal's status). */
      readonly refusal?: Refusal;
      /** The session's minimum log level, as logging/setLevel set it. */
      readonly logLevel?: LogLevel;
    }
  | {
      readonly kind: 'call';
      readonly id: string | number;
      readonly scenario: Scenario;
      readonly args: Readonly<Record<string, unknown>>;
      readonly token?: string | number;
      /** The minimum log level the request's envelope asks for, where the revision sets it per request. */
      readonly logLevel?: LogLevel;
    }
  | { readonly kind: 'cancel'; readonly requestId: unknown }
  | { readonly kind: 'none' };

export function errorReply(id: unknown, code: number, message: string, data?: unknown): JsonObject {
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}

/** A tool result of one text block. */
export function textResult(id: string | number, text: string): JsonObject {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
}

/** The scenarios as `tools/list` gives them: the ones the transport can play. */
export function scenarioTools(transport: Transport): JsonObject[] {
  return SCENARIOS.filter((scenario) => transport === 'streamable-http' || scenario.httpOnly !== true).map((scenario) => ({
    name: scenario.name,
    description: scenario.description,
    inputSchema: scenario.inputSchema,
    ...(scenario.annotations === undefined ? {} : { annotations: scenario.annotations }),
  }));
}

const INITIALIZE_REVISIONS = revisionsWhere('handshake', (value) => value === METHODS.initialize);

/** The revision `initialize` settles: the one the client asks for when the server speaks it, else the most deployed. */
function initializeRevision(asked: unknown): SpecVersion {
  return isSpecVersion(asked) && INITIALIZE_REVISIONS.includes(asked) ? asked : MOST_DEPLOYED_REVISION;
}

/** The caching hints a result of `method` carries on `revision` (none where the revision has no caching). */
function cacheHints(revision: SpecVersion, method: string): JsonObject {
  return fact(revision, 'cacheable-results').value.includes(method) ? { ...CACHE_HINTS } : {};
}

/**
 * Whether a log message at `level` may be sent for a request: where a session sets its level (logging/setLevel), at
 * or above it (every level before one is set); where each request sets it, only at or above the level the request
 * asked for, never for a request that asked for none.
 */
export function mayLog(revision: SpecVersion, level: LogLevel, levels: { session?: LogLevel; request?: LogLevel }): boolean {
  const floor = fact(revision, 'logging-control').value === 'set-level' ? (levels.session ?? LOG_LEVELS[0]) : levels.request;
  return floor !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(floor);
}

function result(id: string | number, body: JsonObject): JsonObject {
  return { jsonrpc: '2.0', id, result: body };
}

/** A tools/call: the scenario to start, or why not. */
function toolCall(id: string | number, params: JsonObject, transport: Transport, logLevel?: LogLevel): Handled {
  const scenario = scenarioNamed(params['name']);
  if (scenario === undefined)
    return {
      kind: 'reply',
      message: errorReply(id, ERROR_CODES.invalidParams, `no scenario named ${JSON.stringify(params['name'] ?? null)}: see tools/list`),
    };
  if (scenario.httpOnly === true && transport === 'stdio')
    return {
      kind: 'reply',
      message: errorReply(
        id,
        ERROR_CODES.invalidParams,
        `${scenario.name} drops an HTTP stream: run mcprely probe-client over Streamable HTTP`,
      ),
    };
  const token = asRecord(params['_meta'])?.['progressToken'];
  return {
    kind: 'call',
    id,
    scenario,
    args: asRecord(params['arguments']) ?? {},
    ...(typeof token === 'string' || typeof token === 'number' ? { token } : {}),
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

/** A request of a revision with a handshake: initialize, ping, logging/setLevel, the tools. */
function handshakeEraRequest(id: string | number, method: string, params: JsonObject, arrival: Arrival): Handled {
  if (method === METHODS.initialize) {
    const revision = initializeRevision(params['protocolVersion']);
    return {
      kind: 'reply',
      revision,
      message: result(id, { protocolVersion: revision, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO }),
    };
  }
  const revision = initializeRevision(arrival.sessionRevision ?? arrival.headers?.protocolVersion);
  if (method === METHODS.ping && fact(revision, 'ping').value) return { kind: 'reply', message: result(id, {}) };
  if (method === METHODS.loggingSetLevel && fact(revision, 'logging-control').value === 'set-level') {
    const level = params['level'];
    if (!isLogLevel(level))
      return { kind: 'reply', message: errorReply(id, ERROR_CODES.invalidParams, `level is one of ${LOG_LEVELS.join(', ')}`) };
    return { kind: 'reply', message: result(id, {}), logLevel: level };
  }
  if (method === METHODS.toolsList) return { kind: 'reply', message: result(id, { tools: scenarioTools(arrival.transport) }) };
  if (method === METHODS.toolsCall) return toolCall(id, params, arrival.transport);
  return { kind: 'reply', message: errorReply(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`) };
}

/** A request of a stateless revision, its envelope read: server/discover and the tools; nothing else is served. */
function statelessRequest(
  id: string | number,
  method: string,
  params: JsonObject,
  arrival: Arrival,
  revision: SpecVersion,
  logLevel: LogLevel | undefined,
): Handled {
  if (method === fact(revision, 'handshake').value)
    return {
      kind: 'reply',
      revision,
      message: result(id, {
        supportedVersions: [...ENVELOPE_REVISIONS],
        capabilities: SERVER_CAPABILITIES,
        ...cacheHints(revision, method),
      }),
    };
  if (method === METHODS.toolsList)
    return { kind: 'reply', message: result(id, { tools: scenarioTools(arrival.transport), ...cacheHints(revision, method) }) };
  if (method === METHODS.toolsCall) return toolCall(id, params, arrival.transport, logLevel);
  return {
    kind: 'reply',
    message: errorReply(id, ERROR_CODES.methodNotFound, `Method not found: ${method}`),
    ...(fact(revision, 'http-method-not-found').value === 'not-found' ? { refusal: 'method-not-found' as const } : {}),
  };
}

/** Reads one message of the client and says what the server does about it (pure: no clock, no I/O). */
export function handleMessage(value: unknown, arrival: Arrival): Handled {
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
  if (envelope.kind === 'handshake-era') return handshakeEraRequest(id, method, params, arrival);
  if (envelope.kind === 'refused')
    return { kind: 'reply', refusal: envelope.refusal, message: errorReply(id, envelope.code, envelope.message, envelope.data) };
  return statelessRequest(id, method, params, arrival, envelope.revision, envelope.logLevel);
}
