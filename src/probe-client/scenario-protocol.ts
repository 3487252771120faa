import { fact } from '../spec/revision-facts.js';
import type { SpecVersion } from '../spec/revisions.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { LOG_LEVELS, type LogLevel } from '../protocol/log-levels.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import {
  type Arrival,
  type CallRequest,
  progressToken,
  type Served,
  serveMessage,
  type ToolServer,
} from '../mcp-serving/served-message.js';
import { type Scenario, SCENARIOS, scenarioNamed } from './scenarios.js';
import { asRecord } from '../protocol/message-guards.js';
import type { Transport } from '../protocol/transports.js';

/** A scenario call to start: the scenario, and the log level the request asks for. */
export interface ScenarioCallRequest extends CallRequest {
  readonly scenario: Scenario;
  /** The minimum log level the request's envelope asks for, where the revision sets it per request. */
  readonly logLevel?: LogLevel;
}

/**
 * What one message from the client asks of the server: an answer now (and, for a handshake, the revision it
 * settled), a scenario call to start, a cancellation, or nothing (a notification or a response of the client).
 */
export type Handled = Served<ScenarioCallRequest>;

export type { Arrival, JsonObject };

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

/**
 * Whether a log message at `level` may be sent for a request: where a session sets its level (logging/setLevel), at
 * or above it (every level before one is set); where each request sets it, only at or above the level the request
 * asked for, never for a request that asked for none.
 */
export function mayLog(revision: SpecVersion, level: LogLevel, levels: { session?: LogLevel; request?: LogLevel }): boolean {
  const floor = fact(revision, 'logging-control').value === 'set-level' ? (levels.session ?? LOG_LEVELS[0]) : levels.request;
  return floor !== undefined && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(floor);
}

/** A tools/call: the scenario to start, or why not. */
function toolCall(
  id: string | number,
  params: JsonObject,
  transport: Transport,
  logLevel?: LogLevel,
): Extract<Handled, { kind: 'reply' }> | ScenarioCallRequest {
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
  const token = progressToken(params);
  return {
    kind: 'call',
    id,
    scenario,
    args: asRecord(params['arguments']) ?? {},
    ...(token === undefined ? {} : { token }),
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

/** The scenario server's own part of serving a message. */
const SCENARIO_SERVER: ToolServer<ScenarioCallRequest> = {
  info: SERVER_INFO,
  capabilities: SERVER_CAPABILITIES,
  cacheHints: CACHE_HINTS,
  tools: scenarioTools,
  call: toolCall,
};

/** Reads one message of the client and says what the server does about it (pure: no clock, no I/O). */
export function handleMessage(value: unknown, arrival: Arrival): Handled {
  return serveMessage(SCENARIO_SERVER, value, arrival);
}
