import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';
import { EVERYTHING, freePort, HOSTILE, startHttp } from '../probe/probe-harness.js';
import { httpProxy, judged, sdkClient } from './http-proxy-harness.js';

// The proxy's wiring over Streamable HTTP: an SDK client through it, and what it forwards. The judges on real sessions
// through it (cancellation at the SDK client's timeout, the 2026-07-28 stream as the cancellation):
// http-proxy-sessions.test.ts, npm run test:live; the judges' logic is tabled in process in test/judges/.

// Sequential: the judges read real timing, and parallel processes on two cores would blur it.
describe('mcprely proxy over Streamable HTTP, with real parties', () => {
  it('server-everything: the SDK client gets the same answers through the proxy as directly; the trace has each message and its stream, no secrets', {
    timeout: 30_000,
  }, async () => {
    const port = await freePort();
    await startHttp([EVERYTHING, 'streamableHttp'], { PORT: String(port) });
    const upstream = `http://127.0.0.1:${port}/mcp`;
    const proxy = await httpProxy(`${upstream}?token=query-secret`);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const ask = async (client: Client) => ({
      tools: (await client.listTools()).tools.map((tool) => tool.name).sort(),
      echo: await client.callTool({ name: 'echo', arguments: { message: 'héllo ✓ "quoted"\nnew line' } }),
      sum: await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }),
    });
    const direct = await sdkClient(upstream);
    const proxied = await sdkClient(proxy.url, { Authorization: 'Bearer header-secret', Cookie: 'session=cookie-secret' });
    const [withProxy, without] = [await ask(proxied), await ask(direct)];
    await Promise.all([proxied.close(), direct.close()]);
    const { code, stderr } = await proxy.stop();
    expect(withProxy).toEqual(without);
    expect(withProxy.tools.length).toBeGreaterThan(5);
    expect(code).toBe(0);
    expect(stderr).toMatch(/mcprely proxy: \d+ messages relayed, interrupted \(SIGTERM\)/);
    expect(showsStackTrace(stderr)).toBe(false);
    const text = readFileSync(proxy.trace, 'utf8');
    expect(text).not.toMatch(/secret/);
    const { read, verdict } = judged(proxy.trace);
    expect(read.header).toMatchObject({ transport: 'http', server: upstream });
    const calls = read.transcript.messages.filter((one) => (one.message as { method?: string }).method === 'tools/call');
    expect(calls).toHaveLength(2);
    // Each answer came back on the stream of the POST that asked for it.
    for (const call of calls) {
      const id = (call.message as { id: unknown }).id;
      const answer = read.transcript.messages.find((one) => one.from === 'server' && (one.message as { id?: unknown }).id === id);
      expect(call.stream).toMatch(/^POST \d+$/);
      expect(answer?.stream).toBe(call.stream);
    }
    expect(verdict['client-request-ids-unique']?.status).toBe('pass');
    expect(verdict['server-answers-only-requests']?.status).toBe('pass');
    expect(verdict['server-messages-on-own-stream']?.status).toBe('pass');
    expect(verdict['server-sse-headers']?.status).toBe('pass');
  });
});

/** A loopback server that answers every request with what it received, to see what the proxy forwards. */
function echoServer(): Promise<{
  port: number;
  seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
  close: () => void;
}> {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
        res.write('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a"}}\n\n');
        return;
      }
      if (req.method === 'DELETE') return res.writeHead(200).end();
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' }).end(`{"jsonrpc":"2.0","id":1,"result":{}}`);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        seen,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

function send(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number | undefined; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (res.headers['content-type'] === 'text/event-stream' && text.includes('\n\n')) {
          resolve({ status: res.statusCode, headers: res.headers, body: text });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('what the HTTP proxy forwards', () => {
  it('method, path, body and session, protocol and auth headers go upstream as sent; responses and SSE come back byte for byte', async () => {
    const upstream = await echoServer();
    const proxy = await httpProxy(`http://user:pw@127.0.0.1:${upstream.port}/mcp`);
    const body = '{ "jsonrpc": "2.0",\n  "id": 1, "method": "tools/list" }';
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 's-1',
      'mcp-protocol-version': '2025-11-25',
      authorization: 'Bearer header-secret',
    };
    const posted = await send(proxy.url, 'POST', headers, body);
    const stream = await send(proxy.url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': 's-1' });
    const deleted = await send(proxy.url, 'DELETE', { 'mcp-session-id': 's-1' });
    // A GET stream still open when the proxy stops: its end is the proxy's, not the host's, so no "closed" record.
    const open = request(proxy.url, { method: 'GET', headers: { accept: 'text/event-stream', 'last-event-id': 'e1' } });
    open.on('error', () => {});
    await new Promise((resolve) => open.on('response', resolve).end());
    const { code } = await proxy.stop();
    upstream.close();
    expect(code).toBe(0);
    expect(posted).toMatchObject({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    expect(posted.headers['mcp-session-id']).toBe('s-1');
    expect(stream.body).toBe('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a"}}\n\n');
    expect(deleted.status).toBe(200);
    expect(upstream.seen.map((one) => `${one.method} ${one.url}`)).toEqual(['POST /mcp', 'GET /mcp', 'DELETE /mcp', 'GET /mcp']);
    expect(upstream.seen[0]?.body).toBe(body);
    expect(upstream.seen[0]?.headers).toMatchObject({ ...headers, host: `127.0.0.1:${upstream.port}` });
    const trace = readFileSync(proxy.trace, 'utf8');
    expect(trace).not.toMatch(/secret|user:pw|pw@|s-1|session-id/i);
    const { read } = judged(proxy.trace);
    // Each exchange with the headers the judges read, and who ended it (the client closed the first GET after one event).
    expect(
      read.transcript.streams?.map(({ id, protocolVersion, lastEventId, response, closed }) => [
        id,
        protocolVersion,
        lastEventId,
        response?.status,
        response?.headers['content-type'],
        closed?.by,
      ]),
    ).toEqual([
      ['POST 1', '2025-11-25', undefined, 200, 'application/json', 'server'],
      ['GET 2', undefined, undefined, 200, 'text/event-stream', 'client'],
      ['DELETE 3', undefined, undefined, 200, undefined, 'server'],
      ['GET 4', undefined, 'e1', 200, 'text/event-stream', undefined],
    ]);
    expect(read.header.server).toBe(`http://127.0.0.1:${upstream.port}/mcp`);
    expect(
      read.transcript.messages.map((one) => [one.from, one.stream, (one.message as { method?: string }).method ?? 'response']),
    ).toEqual([
      ['client', 'POST 1', 'tools/list'],
      ['server', 'POST 1', 'response'],
      ['server', 'GET 2', 'notifications/message'],
      ['server', 'GET 4', 'notifications/message'],
    ]);
    // The pretty-printed POST body is one trace line, written compact; the SSE event's data as it was sent.
    expect(trace).toMatch(/"from":"client","stream":"POST 1","message":\{"jsonrpc":"2.0","id":1,"method":"tools\/list"\}/);
    // The SSE event's id is recorded with its message (what a resumption names).
    expect(trace).toMatch(/"from":"server","stream":"GET 2","event":"e1","message":\{"jsonrpc":"2.0","method":"notifications\/message"/);
  });

  it('an SSE event over the recording bound passes whole and is recorded once, cut (not dropped)', { timeout: 30_000 }, async () => {
    const server = await startHttp([HOSTILE, 'huge-sse-line', '--http', '0']);
    const proxy = await httpProxy(`http://127.0.0.1:${server.port}/mcp`);
    // The server answers tools/call with one SSE event of 50 MiB: "data: " + 50 MiB of "x" + a blank line.
    const received = await new Promise<number>((resolve, reject) => {
      const req = request(
        proxy.url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve(bytes));
        },
      );
      req.on('error', reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_job","arguments":{}}}');
    });
    await proxy.stop();
    server.stop();
    expect(received).toBe(6 + 50 * 1024 * 1024 + 2);
    const records = readFileSync(proxy.trace, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const cut = records.filter((record) => record.from === 'server' && 'text' in record);
    expect(cut).toHaveLength(1);
    expect(cut[0].stream).toBe('POST 1');
    expect(cut[0].text).toBe('x'.repeat(MAX_RECORDED_LINE));
    expect(records.find((record) => record.closed === true && record.stream === 'POST 1')?.from).toBe('server');
  });

  it('an upstream that is not there: 502 with a clear reason, and the proxy keeps running', async () => {
    const port = await freePort();
    const proxy = await httpProxy(`http://127.0.0.1:${port}/mcp`);
    const answer = await send(proxy.url, 'POST', { 'content-type': 'application/json' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(answer.status).toBe(502);
    expect(answer.body).toMatch(/did not answer \(ECONNREFUSED\)/);
    const { code, stderr } = await proxy.stop();
    expect(code).toBe(0);
    expect(showsStackTrace(stderr)).toBe(false);
  });

  it("--header goes on every upstream request in place of the host's header of that name; its value is never recorded", async () => {
    const upstream = await echoServer();
    const proxy = await httpProxy(`http://127.0.0.1:${upstream.port}/mcp`, [
      '--header',
      'X-Api-Key: proxy-key-secret',
      '--header',
      'authorization: Bearer proxy-token-secret',
    ]);
    const host = {
      'content-type': 'application/json',
      authorization: 'Bearer host-secret',
      'X-API-KEY': 'host-key',
      cookie: 'sid=cookie-secret',
    };
    const posted = await send(proxy.url, 'POST', host, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    const deleted = await send(proxy.url, 'DELETE', { 'mcp-session-id': 's-1' });
    const { code, stderr } = await proxy.stop();
    upstream.close();
    expect([code, posted.status, deleted.status]).toEqual([0, 200, 200]);
    expect(upstream.seen.map((one) => [one.headers['x-api-key'], one.headers.authorization, one.headers.cookie])).toEqual([
      ['proxy-key-secret', 'Bearer proxy-token-secret', 'sid=cookie-secret'],
      ['proxy-key-secret', 'Bearer proxy-token-secret', undefined],
    ]);
    expect(readFileSync(proxy.trace, 'utf8') + stderr).not.toMatch(/secret/);
    for (const [args, said] of [
      [['--header', 'X-Api-Key: value-secret', '--', 'node', 'x'], /--header is for a Streamable HTTP upstream/],
      [
        ['--url', 'http://127.0.0.1:1/mcp', '--header', 'Transfer-Encoding: value-secret'],
        /--header Transfer-Encoding: a hop-by-hop header/,
      ],
      [['--url', 'http://u:pass-secret@[::1/mcp?token=query-secret'], /--url http:\/\/\[redacted\]@\[::1\/mcp\?\[redacted\]: not a URL/],
    ] as const) {
      const run = runCli(['proxy', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(said);
      expect(run.stderr).not.toMatch(/value-secret|pass-secret|query-secret/);
      expect(showsStackTrace(run.stderr)).toBe(false);
    }
  });

  it('usage errors: a clear message and exit 2, no stack trace', async () => {
    const busy = await echoServer();
    for (const [args, said] of [
      [['--url', 'not a url'], /--url not a url: not a URL/],
      [['--url', 'ftp://127.0.0.1/mcp'], /must be http:\/\/ or https:\/\//],
      [['--url', 'http://127.0.0.1:1/mcp', '--', 'node', 'x'], /give one server: --url <endpoint> or a command/],
      [['--listen', '8931', '--', 'node', 'x'], /--listen is for a Streamable HTTP upstream/],
      [['--url', 'http://127.0.0.1:1/mcp', '--listen', 'localhost:99999'], /--listen localhost:99999: give a port, or host:port/],
      [['--url', 'http://127.0.0.1:1/mcp', '--listen', `127.0.0.1:${busy.port}`], /cannot listen on 127\.0\.0\.1:\d+: the port is in use/],
    ] as const) {
      const run = runCli(['proxy', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(said);
      expect(showsStackTrace(run.stderr)).toBe(false);
    }
    busy.close();
  });
});
