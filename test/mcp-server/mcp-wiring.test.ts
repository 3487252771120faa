import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { MCPRELY, startHttpMcp } from './mcp-server-harness.js';

/** One real process per transport: `mcprely mcp` initializes, lists its tools and answers one call. */
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wiring', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const CALL = {
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'lint_manifest', arguments: { path: 'fixtures/examples/docs-search.yaml' } },
};
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});

describe('mcprely mcp as a process', () => {
  it('over stdio', { timeout: 20_000 }, async () => {
    const child = spawn(process.execPath, [MCPRELY, 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    stops.push(() => child.kill());
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ask = async (message: object) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return JSON.parse(String((await answers.next()).value));
    };
    expect(await ask(INITIALIZE)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'mcprely' } } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    expect((await ask(LIST)).result.tools).toHaveLength(6);
    expect(await ask(CALL)).toMatchObject({
      id: 3,
      result: { structuredContent: { file: 'fixtures/examples/docs-search.yaml', errors: 0 } },
    });
    child.stdin.end();
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });

  it('over Streamable HTTP, behind the Host guard', { timeout: 20_000 }, async () => {
    const server = await startHttpMcp(process.cwd());
    stops.push(server.stop);
    const post = (message: object, headers: Record<string, string> = {}) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(message),
      });
    const opened = await post(INITIALIZE);
    const session = opened.headers.get('mcp-session-id') as string;
    expect(await opened.json()).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect(((await (await post(LIST, headers)).json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(6);
    const called = await post(CALL, headers);
    expect(called.headers.get('content-type')).toBe('text/event-stream');
    const event = /data: (.*)\n/.exec(await called.text())?.[1] as string;
    expect(JSON.parse(event)).toMatchObject({ id: 3, result: { structuredContent: { errors: 0 } } });
    // Another name for this machine (a page that rebinds its own name) is refused.
    const rebound = await new Promise<number | undefined>((resolve) => {
      const sent = request(
        server.url,
        { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } },
        (res) => resolve(res.statusCode),
      );
      sent.end(JSON.stringify(LIST));
    });
    expect(rebound).toBe(403);
    expect((await fetch(server.url)).status).toBe(405);
    // A body past 4 MiB is refused whole (413), read to its end so that the client reads the answer.
    expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }, headers)).status).toBe(413);
  });

  it.each([
    [['--allow-host', 'box.example'], /--allow-host and --allow-origin widen an HTTP listener: give them with --listen/],
    [['--listen', 'here'], /--listen here: give a port, or host:port/],
    [['--folder', 'no/such/folder'], /--folder no\/such\/folder is not a folder: give an existing folder/],
  ])('bad options %j: exit 2 with what to do, no stack trace', async (args, message) => {
    const run = await runCliAsync(['mcp', ...args]);
    expect(run.stderr).toMatch(message);
    expect(showsStackTrace(run.stderr)).toBe(false);
    expect(run.status).toBe(2);
  });
});
