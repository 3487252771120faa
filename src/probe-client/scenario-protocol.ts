import { revisionsWhere } from '../spec/revision-facts.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { type Scenario, SCENARIOS, scenarioNamed } from './scenarios.js';

/** The server's name and version as `initialize` and `server/discover` give them. */
export const SERVER_INFO = { name: 'mcprely-probe-client', version: '1' } as const;

/** A JSON-RPC message as the scenario server reads it. */
export type JsonObject = Record<string, unknown>;

/**
 * What one message from the client asks of the server: an answer now (and, for a handshake, the revision it
 * settled), a scenario call to start, a cancellation, or nothing (a notification or a response of the client).
 */
export type Handled =
  | { readonly kind: 'reply'; readonly message: JsonObject; readonly revision?: SpecVersion }
  | {
      readonly kind: 'call';
      readonly id: string | number;
      readonly scenario: Scenario;
      readonly args: Readonly<Record<string, unknown>>;
      readonly token?: string | number;
    }
  | { readonly kind: 'cancel'; readonly requestId: unknown }
  | { readonly kind: 'none' };

function record(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function errorReply(id: unknown, code: number, message: string): JsonObject {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } };
}

/** A tool result of one text block. */
export function textResult(id: string | number, text: string): JsonObject {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
}

/** The scenarios as `tools/list` gives them: the ones the transport can play. */
export function scenarioTools(transport: 'stdio' | 'http'): JsonObject[] {
  return SCENARIOS.filter((scenario) => transport === 'http' || scenario.httpOnly !== true).map((scenario) => ({
    name: scenario.name,
    description: scenario.description,
    inputSchema: scenario.inputSchema,
    ...(scenario.annotations === undefined ? {} : { annotations: scenario.annotations }),
  }));
}

const INITIALIZE_REVISIONS = revisionsWhere('handshake', (value) => value === 'initialize');
const DISCOVER_REVISIONS = revisionsWhere('handshake', (value) => value === 'server/discover');

/** The revision `initialize` settles: the one the client asks for when the server speaks it, else the most deployed. */
function initializeRevision(asked: unknown): SpecVersion {
  return isSpecVersion(asked) && INITIALIZE_REVISIONS.includes(asked) ? asked : MOST_DEPLOYED_REVISION;
}

/** Reads one message of the client and says what the server does about it (pure: no clock, no I/O). */
export function handleMessage(value: unknown, transport: 'stdio' | 'http'): Handled {
  const message = record(value);
  if (message === undefined) return { kind: 'reply', message: errorReply(null, -32600, 'a message is a JSON object') };
  const { id, method } = message;
  const params = record(message['params']) ?? {};
  if (typeof method !== 'string') return { kind: 'none' };
  if (id === undefined || id === null) {
    if (method === 'notifications/cancelled') return { kind: 'cancel', requestId: params['requestId'] };
    return { kind: 'none' };
  }
  if (typeof id !== 'string' && typeof id !== 'number')
    return { kind: 'reply', message: errorReply(null, -32600, 'a request id is a string or a number') };
  if (method === 'initialize') {
    const revision = initializeRevision(params['protocolVersion']);
    return {
      kind: 'reply',
      revision,
      message: { jsonrpc: '2.0', id, result: { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: SERVER_INFO } },
    };
  }
  if (method === 'server/discover') {
    const [revision] = DISCOVER_REVISIONS;
    if (revision === undefined) return { kind: 'reply', message: errorReply(id, -32601, 'Method not found: server/discover') };
    return {
      kind: 'reply',
      revision,
      message: {
        jsonrpc: '2.0',
        id,
        result: { supportedVersions: DISCOVER_REVISIONS, capabilities: { tools: {} }, serverInfo: SERVER_INFO },
      },
    };
  }
  if (method === 'ping') return { kind: 'reply', message: { jsonrpc: '2.0', id, result: {} } };
  if (method === 'tools/list') return { kind: 'reply', message: { jsonrpc: '2.0', id, result: { tools: scenarioTools(transport) } } };
  if (method !== 'tools/call') return { kind: 'reply', message: errorReply(id, -32601, `Method not found: ${method}`) };
  const scenario = scenarioNamed(params['name']);
  if (scenario === undefined)
    return {
      kind: 'reply',
      message: errorReply(id, -32602, `no scenario named ${JSON.stringify(params['name'] ?? null)}: see tools/list`),
    };
  if (scenario.httpOnly === true && transport === 'stdio')
    return {
      kind: 'reply',
      message: errorReply(id, -32602, `${scenario.name} drops an HTTP stream: run mcprely probe-client over Streamable HTTP`),
    };
  const token = record(params['_meta'])?.['progressToken'];
  return {
    kind: 'call',
    id,
    scenario,
    args: record(params['arguments']) ?? {},
    ...(typeof token === 'string' || typeof token === 'number' ? { token } : {}),
  };
}
