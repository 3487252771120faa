import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';
import { spawnHttpProxy } from './http-proxy-process.js';
import { EVERYTHING, freePort, HOSTILE, startHttp, stopServers } from '../probe/probe-harness.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-http-proxy-'));
const proxies = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const proxy of proxies) proxy.kill('SIGKILL');
  stopServers();
  rmSync(work, { recursive: true, force: true });
});
let traces = 0;

/** `mcprely proxy --url <upstream>` as a host would run it, recording to a trace of its own; killed after the tests if left running. */
async function httpProxy(upstream: string, extra: readonly string[] = []) {
  const trace = join(work, `trace-${++traces}.jsonl`);
  const proxy = await spawnHttpProxy(upstream, ['--record', trace, ...extra]);
  proxies.add(proxy.child);
  return {
    url: proxy.url,
    trace,
    async stop() {
      const stopped = await proxy.stop();
      proxies.delete(proxy.child);
      return stopped;
    },
  };
}

async function sdkClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-proxy-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

function judged(trace: string, options: { idleTimeoutMs?: number } = {}) {
  const read = readTrace(readFileSync(trace, 'utf8'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const verdict = judgeSession(read.transcript, { toleranceMs: 300, graceMs: 100, ...options });
  return { read, verdict: Object.fromEntries(verdict.judgements.map((one) => [one.judge, one])) };
}

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

  it('a server that stops when cancelled passes; one that keeps sending progress fails — the SDK client cancelling at its timeout', {
    timeout: 30_000,
  }, async () => {
    const outcome = async (defect: string) => {
      const server = await startHttp([HOSTILE, defect, '--http', '0', '--step-ms', '300']);
      const proxy = await httpProxy(`http://127.0.0.1:${server.port}/mcp`, ['--idle-timeout', '450']);
      const client = await sdkClient(proxy.url);
      // slow_job: progress every 300 ms, the answer at 1 200 ms; the client times out at 450 ms.
      await expect(client.callTool({ name: 'slow_job', arguments: {} }, undefined, { timeout: 450, onprogress: () => {} })).rejects.toThrow(
        /timed out/i,
      );
      await new Promise((resolve) => setTimeout(resolve, 900));
      await client.close();
      const { stderr } = await proxy.stop();
      server.stop();
      return { ...judged(proxy.trace, { idleTimeoutMs: 450 }), stderr };
    };
    const [good, bad, bare] = [await outcome('none'), await outcome('progress-after-cancel'), await outcome('missing-sse-headers')];
    expect(good.verdict['server-silent-after-cancel']?.status, JSON.stringify(good.verdict)).toBe('pass');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status).toBe('pass');
    expect(good.verdict['server-sse-headers']?.status).toBe('pass');
    expect(good.verdict['server-messages-on-own-stream']?.status).toBe('pass');
    // 2025-11-25: the SDK client closing its stream is not the cancellation; it POSTs notifications/cancelled.
    expect(good.read.transcript.streams?.some((stream) => stream.closed?.by === 'client')).toBe(true);
    expect(bare.verdict['server-sse-headers']?.summary).toMatch(
      /^the SSE response of POST \d+ lacks Cache-Control: no-cache, X-Accel-Buffering: no$/,
    );
    expect(bare.verdict['server-silent-after-cancel']?.status).toBe('pass');
    expect(bad.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(bad.verdict['server-silent-after-cancel']?.summary).toMatch(/sent progress for tools\/call slow_job/);
    expect(bad.stderr).toMatch(/FAIL +server-silent-after-cancel/);
  });
});

/**
 * A bare 2026-07-28 client: POSTs a tools/call of slow_job (progress token = id, unless `progress: false`) and reads its SSE stream; closes the
 * stream after `closeAfterMs` (the revision's cancellation), or reads it to its end. Resolves when the stream is over.
 */
function call2026(
  url: string,
  id: number,
  options: { closeAfterMs?: number; lastEventId?: string; method?: string; progress?: false } = {},
) {
  const method = options.method ?? 'tools/call';
  const meta = options.progress === false ? {} : { _meta: { progressToken: id } };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: method === 'tools/call' ? { name: 'slow_job', arguments: {}, ...meta } : {},
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
  };
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('close', () => resolve(text));
    });
    req.on('error', (error) => (req.destroyed ? resolve(text) : reject(error)));
    if (options.closeAfterMs !== undefined) setTimeout(() => req.destroy(), options.closeAfterMs);
    req.end(body);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mcprely proxy over Streamable HTTP on 2026-07-28: the stream is the cancellation', () => {
  /** One session through the proxy to the hostile server of `defect` (2026-07-28, progress every 150 ms, the answer at 600 ms). */
  async function session(defect: string, client: (url: string) => Promise<unknown>) {
    const server = await startHttp([HOSTILE, defect, '--http', '0', '--revision', '2026-07-28']);
    const proxy = await httpProxy(`http://127.0.0.1:${server.port}/mcp`);
    await client(proxy.url);
    await proxy.stop();
    server.stop();
    return judged(proxy.trace, { idleTimeoutMs: 200 });
  }
  /** Cancels its call at the idle timeout by closing the stream, then sends a later request (a stream the server may misuse). */
  const closesAtTimeout = async (url: string) => {
    await call2026(url, 1, { closeAfterMs: 200 });
    await pause(700);
    await call2026(url, 2, { method: 'tools/list' });
  };

  it('a client that closes the stream at its timeout passes; the server that then stays silent passes, one that writes the answer into a later stream fails', {
    timeout: 30_000,
  }, async () => {
    const good = await session('none', closesAtTimeout);
    expect(good.read.transcript.streams?.find((stream) => stream.id === 'POST 1')?.closed?.by).toBe('client');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status, JSON.stringify(good.verdict['client-cancels-on-idle-timeout'])).toBe(
      'pass',
    );
    expect(good.verdict['server-silent-after-cancel']?.status).toBe('pass');
    expect(good.verdict['server-messages-on-own-stream']?.status).toBe('pass');
    expect(good.verdict['server-sse-headers']?.status).toBe('pass');
    const held = await session('held-for-next-stream', closesAtTimeout);
    expect(held.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(held.verdict['server-silent-after-cancel']?.summary).toMatch(
      /for tools\/call slow_job \(id 1\) \d+ ms after the client cancelled it/,
    );
    expect(held.verdict['server-messages-on-own-stream']?.summary).toMatch(
      /for tools\/call slow_job \(id 1\) came on POST 2, not on POST 1/,
    );
    // The cancelled call's progress written into another call's open stream.
    const crossed = await session('cross-stream', (url) => Promise.all([call2026(url, 1, { closeAfterMs: 200 }), call2026(url, 2)]));
    expect(crossed.verdict['server-messages-on-own-stream']?.status).toBe('fail');
    const misplaced = crossed.verdict['server-messages-on-own-stream']?.cases
      .filter((one) => one.status === 'fail')
      .map((one) => one.message);
    expect(misplaced).toContain('progress for tools/call slow_job (id 1) came on POST 2, not on POST 1, the stream of the request');
    expect(crossed.verdict['server-silent-after-cancel']?.status).toBe('fail');
  });

  it('a client that never closes a timed-out call fails; one that resumes with Last-Event-ID fails; one that re-sends a lost call passes', {
    timeout: 30_000,
  }, async () => {
    // Without progress nothing resets the idle timer: the answer at 600 ms is past the 200 ms timeout (and its tolerance).
    const waits = await session('none', (url) => call2026(url, 1, { progress: false }));
    expect(waits.verdict['client-cancels-on-idle-timeout']?.summary).toMatch(
      /^tools\/call slow_job \(id 1\) passed its idle timeout \(200 ms\) without a cancellation/,
    );
    const resumes = await session('none', async (url) => {
      await call2026(url, 1, { closeAfterMs: 200 });
      await call2026(url, 1, { lastEventId: 'e-3', closeAfterMs: 200 });
    });
    expect(resumes.verdict['client-resumes-only-where-supported']?.summary).toMatch(
      /^POST 2 sent Last-Event-ID e-3, but 2026-07-28 has no resumption/,
    );
    expect(resumes.verdict['client-request-ids-unique']?.status).toBe('fail');
    // The way 2026-07-28 recovers a stream the server broke: the lost call sent again under a new id, no Last-Event-ID.
    const reissues = await session('drop-stream', async (url) => {
      await call2026(url, 1);
      await call2026(url, 2);
    });
    expect(reissues.read.transcript.streams?.find((stream) => stream.id === 'POST 1')?.closed?.by).toBe('server');
    expect(
      reissues.verdict['client-resumes-only-where-supported']?.status,
      JSON.stringify(reissues.verdict['client-resumes-only-where-supported']),
    ).toBe('pass');
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
