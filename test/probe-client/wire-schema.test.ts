import { PassThrough } from 'node:stream';
import { LOOPBACK_ONLY } from '../helpers/loopback-guard.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioHttpServer } from '../../src/probe-client/http-server.js';
import { serveStdio } from '../../src/probe-client/stdio-server.js';
import type { SpecVersion } from '../../src/spec/revisions.js';
import { type WireValidator, wireValidator } from './mcp-schema.js';

/**
 * Every message `mcprely probe-client` sends, over stdio and Streamable HTTP, on each revision, validated against that
 * revision's JSON schema (mcp-schema/): each request of a script is answered, each answer and notification checked.
 * Beside the schema, what each refusal is (its code, and over HTTP its status) and what a stateless result carries.
 */

const TIMING = { idleMs: 150, maxMs: 1000, holdMs: 1000 };
const OLD: SpecVersion = '2025-11-25';
const NEW: SpecVersion = '2026-07-28';
const SCHEMAS: Record<SpecVersion, WireValidator> = { [OLD]: wireValidator(OLD), [NEW]: wireValidator(NEW) };

type Json = Record<string, unknown>;
const meta = (extra: Json = {}) => ({
  'io.modelcontextprotocol/protocolVersion': NEW,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'wire-schema-test', version: '1' },
  ...extra,
});
const request = (id: number, method: string, params?: Json): Json => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
/** A request of the stateless revision: its envelope merged into its params. */
const stateless = (id: number, method: string, params: Json = {}, extra: Json = {}): Json =>
  request(id, method, { ...params, _meta: meta({ ...(params['_meta'] as Json | undefined), ...extra }) });

/** A message the server sent, and the method of the request it answers (a response) or undefined (a notification). */
interface Sent {
  readonly message: Json;
  readonly answers?: string;
}

/** Each message's problems against the revision's schema, as `method → problem` lines (empty: all valid). */
function schemaProblems(revision: SpecVersion, sent: readonly Sent[]): string[] {
  return sent.flatMap(({ message, answers }) =>
    SCHEMAS[revision].problems(message, answers).map((problem) => `${answers ?? String(message['method'])}: ${problem}`),
  );
}

/** Plays `script` over stdio in process: each line in (a string as it is), every line out, each response paired with its request's method. */
async function overStdio(script: readonly (Json | string)[], settleMs = 100): Promise<Sent[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Json[] = [];
  output.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
  });
  const served = serveStdio(input, output, TIMING);
  const methods = new Map<unknown, string>();
  for (const message of script) {
    if (typeof message === 'string') input.write(`${message}\n`);
    else {
      if (message['id'] !== undefined) methods.set(message['id'], String(message['method']));
      input.write(`${JSON.stringify(message)}\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Until every request has its answer (on a loaded machine the timers run late), then a while for what follows one.
  const answered = () => [...methods.keys()].every((id) => lines.some((line) => line['id'] === id && !('method' in line)));
  for (let waited = 0; !answered() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  input.end();
  await served.ended;
  served.session.end('done');
  return lines.map((message) => ({ message, ...(methods.has(message['id']) ? { answers: methods.get(message['id']) } : {}) }));
}

let server: ScenarioHttpServer;
let url: string;
beforeAll(async () => {
  server = new ScenarioHttpServer(TIMING, () => undefined, LOOPBACK_ONLY);
  url = await server.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => server.close('done'));

interface Posted {
  readonly status: number;
  readonly headers: Headers;
  /** The messages of the body: one JSON message, or each SSE event's. */
  readonly messages: Json[];
}

/** POSTs one message with `headers` and reads the whole response (to `to`, the shared server unless told). */
async function post(message: Json, headers: Record<string, string>, to = url): Promise<Posted> {
  const response = await fetch(to, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)))
    : text === ''
      ? []
      : [JSON.parse(text)];
  return { status: response.status, headers: response.headers, messages };
}

/** The standard headers of a stateless request that mirror its body (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
function mirrored(message: Json): Record<string, string> {
  const name = (message['params'] as Json | undefined)?.['name'];
  return {
    'MCP-Protocol-Version': NEW,
    'Mcp-Method': String(message['method']),
    ...(message['method'] === 'tools/call' && typeof name === 'string' ? { 'Mcp-Name': name } : {}),
  };
}

/** Plays `script` over HTTP, one POST each (with the headers `headersOf` gives it); what the server sent, paired. */
async function overHttp(script: readonly Json[], headersOf: (message: Json) => Record<string, string>, to = url): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const message of script) {
    const answered = await post(message, headersOf(message), to);
    for (const one of answered.messages)
      sent.push({ message: one, ...(one['id'] === message['id'] && 'method' in message ? { answers: String(message['method']) } : {}) });
  }
  return sent;
}

const OLD_SCRIPT = (transport: 'stdio' | 'http'): Json[] => [
  request(0, 'initialize', { protocolVersion: OLD, capabilities: {}, clientInfo: { name: 'wire-schema-test', version: '1' } }),
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  request(1, 'ping'),
  request(2, 'logging/setLevel', { level: 'debug' }),
  request(3, 'logging/setLevel', { level: 'loud' }),
  request(4, 'tools/list'),
  request(5, 'tools/call', { name: 'answers_after', arguments: { ms: 10 } }),
  request(6, 'tools/call', { name: 'progress_then_finish', arguments: { steps: 2, intervalMs: 20 }, _meta: { progressToken: 'p6' } }),
  request(7, 'tools/call', { name: 'fails', arguments: {} }),
  request(8, 'tools/call', { name: 'no_such_scenario', arguments: {} }),
  request(9, 'resources/list'),
  ...(transport === 'http'
    ? [request(10, 'tools/call', { name: 'drop_stream_resumable', arguments: {}, _meta: { progressToken: 'p10' } })]
    : [request(10, 'tools/call', { name: 'drop_stream_resumable', arguments: {} })]),
];

const NEW_SCRIPT: Json[] = [
  stateless(0, 'server/discover'),
  stateless(1, 'tools/list'),
  stateless(2, 'tools/call', { name: 'answers_after', arguments: { ms: 10 } }),
  stateless(3, 'tools/call', { name: 'progress_then_finish', arguments: { steps: 2, intervalMs: 20 }, _meta: { progressToken: 'p3' } }),
  stateless(4, 'tools/call', { name: 'fails', arguments: {} }),
  stateless(5, 'tools/call', { name: 'no_such_scenario', arguments: {} }),
  stateless(6, 'initialize', { protocolVersion: NEW, capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
  stateless(7, 'ping'),
  stateless(8, 'logging/setLevel', { level: 'debug' }),
  stateless(9, 'resources/subscribe', { uri: 'file:///x' }),
  request(10, 'tools/list'),
  request(11, 'server/discover', { _meta: { 'io.modelcontextprotocol/protocolVersion': NEW } }),
  request(12, 'server/discover', { _meta: meta({ 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }) }),
];

const answerTo = (sent: readonly Sent[], id: number) => sent.find(({ message }) => message['id'] === id && !('method' in message))?.message;

describe('every message probe-client sends is valid against its revision’s schema', () => {
  it('2025-11-25 over stdio: the handshake, ping, logging/setLevel, the tools, progress, the errors', async () => {
    const sent = await overStdio([...OLD_SCRIPT('stdio'), 'not json']);
    expect(schemaProblems(OLD, sent)).toEqual([]);
    expect(sent.map(({ message }) => message).find((message) => message['id'] === null)).toMatchObject({ error: { code: -32700 } });
    expect(answerTo(sent, 0)).toMatchObject({ result: { protocolVersion: OLD, capabilities: { tools: {}, logging: {} } } });
    expect(answerTo(sent, 3)).toMatchObject({ error: { code: -32602 } });
    expect(answerTo(sent, 4)?.['result']).not.toHaveProperty('ttlMs');
    expect(sent.filter(({ message }) => message['method'] === 'notifications/progress')).toHaveLength(2);
  });

  it('2025-11-25 over HTTP: the same, and the log message that opens a dropped stream (the level lets debug through)', async () => {
    const opened = await post(OLD_SCRIPT('http')[0] as Json, {});
    const session = opened.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    const sent = [
      { message: opened.messages[0] as Json, answers: 'initialize' },
      ...(await overHttp(OLD_SCRIPT('http').slice(1), () => ({ 'Mcp-Session-Id': session, 'MCP-Protocol-Version': OLD }))),
    ];
    expect(schemaProblems(OLD, sent)).toEqual([]);
    expect(sent.map(({ message }) => message['method']).filter(Boolean)).toContain('notifications/message');
    // A level above debug keeps it back.
    await post(request(20, 'logging/setLevel', { level: 'info' }), { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': OLD });
    const quiet = await post(request(21, 'tools/call', { name: 'drop_stream_resumable', arguments: {} }), {
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': OLD,
    });
    expect(quiet.messages.map((message) => message['method'])).not.toContain('notifications/message');
  });

  it('2026-07-28 over stdio: discover, the tools with resultType, caching hints and serverInfo; the refusals', async () => {
    const sent = await overStdio(NEW_SCRIPT);
    expect(schemaProblems(NEW, sent)).toEqual([]);
    const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'mcprely-probe-client', version: '1' } };
    expect(answerTo(sent, 0)).toEqual({
      jsonrpc: '2.0',
      id: 0,
      result: {
        supportedVersions: [NEW],
        capabilities: { tools: {}, logging: {} },
        ttlMs: 0,
        cacheScope: 'public',
        resultType: 'complete',
        _meta: serverInfo,
      },
    });
    expect(answerTo(sent, 1)).toMatchObject({ result: { ttlMs: 0, cacheScope: 'public', resultType: 'complete', _meta: serverInfo } });
    expect(answerTo(sent, 2)).toMatchObject({ result: { resultType: 'complete', _meta: serverInfo } });
    expect(answerTo(sent, 2)?.['result']).not.toHaveProperty('ttlMs');
    for (const id of [6, 7, 8, 9]) expect(answerTo(sent, id), `request ${id}`).toMatchObject({ error: { code: -32601 } });
    // The session speaks the stateless revision: a request without its envelope is malformed.
    expect(answerTo(sent, 10)).toMatchObject({ error: { code: -32602 } });
    expect(answerTo(sent, 11)).toMatchObject({ error: { code: -32602, message: /clientCapabilities/ } });
    expect(answerTo(sent, 12)).toMatchObject({ error: { code: -32022, data: { supported: [NEW], requested: '1999-01-01' } } });
  });

  it('2026-07-28 over HTTP: the same script with conformant headers; a dropped stream sends a log message only when asked', async () => {
    const sent = await overHttp(NEW_SCRIPT, mirrored);
    expect(schemaProblems(NEW, sent)).toEqual([]);
    expect(answerTo(sent, 1)).toMatchObject({ result: { ttlMs: 0, cacheScope: 'public', resultType: 'complete' } });
    // Each on a server of its own: a session drops a scenario's stream once (the call sent again gets its answer).
    const dropped = async (extra: Json) => {
      const own = new ScenarioHttpServer(TIMING, () => undefined, LOOPBACK_ONLY);
      const ownUrl = await own.listen({ host: '127.0.0.1', port: 0 });
      const call = stateless(30, 'tools/call', { name: 'drop_stream_resumable', arguments: {} }, extra);
      const sent = await overHttp([call], mirrored, ownUrl);
      await own.close('done');
      return sent;
    };
    const silent = await dropped({});
    const asked = await dropped({ 'io.modelcontextprotocol/logLevel': 'debug' });
    const tooLoud = await dropped({ 'io.modelcontextprotocol/logLevel': 'info' });
    expect(tooLoud.map(({ message }) => message['method'])).not.toContain('notifications/message');
    expect(schemaProblems(NEW, [...silent, ...asked])).toEqual([]);
    expect(silent.map(({ message }) => message['method'])).not.toContain('notifications/message');
    expect(asked.map(({ message }) => message['method'])).toContain('notifications/message');
  });
});

/** One request of the stateless revision over HTTP and what it must get: its status, its error code (if refused). */
interface HttpCase {
  readonly name: string;
  readonly message: Json;
  readonly headers: Record<string, string>;
  readonly status: number;
  readonly code?: number;
}
const discover = stateless(40, 'server/discover');
const call = stateless(41, 'tools/call', { name: 'fails', arguments: {} });
const list = stateless(42, 'tools/list');
const HTTP_CASES: HttpCase[] = [
  { name: 'a conformant discover', message: discover, headers: mirrored(discover), status: 200 },
  { name: 'no _meta', message: request(43, 'server/discover'), headers: mirrored(discover), status: 400, code: -32602 },
  {
    name: '_meta without the protocol version',
    message: request(44, 'tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }),
    headers: mirrored(list),
    status: 400,
    code: -32602,
  },
  {
    name: 'an unsupported version (header and body agree)',
    message: stateless(45, 'server/discover', {}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }),
    headers: { ...mirrored(discover), 'MCP-Protocol-Version': 'v999.0.0' },
    status: 400,
    code: -32022,
  },
  {
    name: 'MCP-Protocol-Version contradicting _meta',
    message: stateless(46, 'server/discover', {}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }),
    headers: mirrored(discover),
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Method contradicting the body',
    message: list,
    headers: { ...mirrored(list), 'Mcp-Method': 'prompts/list' },
    status: 400,
    code: -32020,
  },
  {
    name: 'Mcp-Method in another case',
    message: list,
    headers: { ...mirrored(list), 'Mcp-Method': 'TOOLS/LIST' },
    status: 400,
    code: -32020,
  },
  { name: 'no Mcp-Method', message: list, headers: { 'MCP-Protocol-Version': NEW }, status: 400, code: -32020 },
  { name: 'no MCP-Protocol-Version', message: list, headers: { 'Mcp-Method': 'tools/list' }, status: 400, code: -32020 },
  {
    name: 'Mcp-Name contradicting params.name',
    message: call,
    headers: { ...mirrored(call), 'Mcp-Name': 'never_answers' },
    status: 400,
    code: -32020,
  },
  {
    name: 'no Mcp-Name on tools/call',
    message: call,
    headers: { 'MCP-Protocol-Version': NEW, 'Mcp-Method': 'tools/call' },
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Name in Base64', message: call, headers: { ...mirrored(call), 'Mcp-Name': '=?base64?ZmFpbHM=?=' }, status: 200 },
  {
    name: 'Mcp-Name in broken Base64',
    message: call,
    headers: { ...mirrored(call), 'Mcp-Name': '=?base64?ZmFpbHM?=' },
    status: 400,
    code: -32020,
  },
  { name: 'Mcp-Name with spaces around it', message: call, headers: { ...mirrored(call), 'Mcp-Name': '  fails  ' }, status: 200 },
  { name: 'lower-case header names', message: list, headers: { 'mcp-protocol-version': NEW, 'mcp-method': 'tools/list' }, status: 200 },
  {
    name: 'an Mcp-Session-Id of no session (ignored)',
    message: list,
    headers: { ...mirrored(list), 'Mcp-Session-Id': 'gone' },
    status: 200,
  },
  {
    name: 'removed: initialize with an envelope',
    message: stateless(47, 'initialize', { protocolVersion: NEW, capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
    headers: { 'MCP-Protocol-Version': NEW, 'Mcp-Method': 'initialize' },
    status: 404,
    code: -32601,
  },
  ...['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'unknown/method'].map((method, index) => ({
    name: `removed or unknown: ${method}`,
    message: stateless(50 + index, method),
    headers: { 'MCP-Protocol-Version': NEW, 'Mcp-Method': method },
    status: 404,
    code: -32601,
  })),
  {
    name: 'initialize without an envelope but with a stateless version header',
    message: request(60, 'initialize', { protocolVersion: OLD, capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
    headers: { 'MCP-Protocol-Version': NEW },
    status: 400,
    code: -32020,
  },
];

describe('the stateless revision over HTTP: each refusal with its status and code, each answer valid', () => {
  for (const one of HTTP_CASES)
    it(one.name, async () => {
      const answered = await post(one.message, one.headers);
      expect(answered.status).toBe(one.status);
      const answer = answered.messages.find((message) => message['id'] === one.message['id']);
      expect(answer, JSON.stringify(answered.messages)).toBeDefined();
      if (one.code !== undefined) expect(answer).toMatchObject({ id: one.message['id'], error: { code: one.code } });
      else if (one.message['method'] === 'tools/call') expect(answer).toMatchObject({ error: { code: -32603 } });
      else expect(answer).toHaveProperty('result');
      expect(answered.headers.get('mcp-session-id')).toBeNull();
      expect(schemaProblems(NEW, [{ message: answer as Json, answers: String(one.message['method']) }])).toEqual([]);
    });
});

describe('the validator itself', () => {
  it('rejects what a 2026-07-28 client rejects: a tools/list result without ttlMs, a discover result without cacheScope', () => {
    const tools = { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', cacheScope: 'public', tools: [] } };
    expect(SCHEMAS[NEW].problems(tools, 'tools/list').join('\n')).toMatch(/ListToolsResult must have required property 'ttlMs'/);
    const discovered = { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', ttlMs: 0, supportedVersions: [NEW], capabilities: {} } };
    expect(SCHEMAS[NEW].problems(discovered, 'server/discover').join('\n')).toMatch(
      /DiscoverResult must have required property 'cacheScope'/,
    );
    expect(SCHEMAS[NEW].problems({ ...tools, result: { ...tools.result, ttlMs: 0 } }, 'tools/list')).toEqual([]);
    expect(SCHEMAS[NEW].problems({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'no' } })).not.toEqual([]);
    expect(SCHEMAS[OLD].problems({ jsonrpc: '2.0', id: 1, result: { protocolVersion: OLD, capabilities: {} } }, 'initialize')).not.toEqual(
      [],
    );
  });
});
