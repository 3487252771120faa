import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { CLI, REPO_ROOT, runCli, showsStackTrace } from '../helpers/run-cli.js';
import { EVERYTHING, freePort, HOSTILE, startHttp, stopServers } from '../probe/probe-harness.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-http-proxy-'));
const proxies = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const proxy of proxies) proxy.kill('SIGKILL');
  stopServers();
  rmSync(work, { recursive: true, force: true });
});
let traces = 0;

/** `mcprely proxy --url <upstream>` as a host would run it: resolves once it prints where it listens. */
async function httpProxy(upstream: string, extra: readonly string[] = []) {
  const trace = join(work, `trace-${++traces}.jsonl`);
  const child = spawn(process.execPath, [CLI, 'proxy', '--url', upstream, '--record', trace, ...extra], { cwd: REPO_ROOT });
  proxies.add(child);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /listening on (\S+)/.exec(stderr);
      if (found !== null) resolve(found[1] as string);
    });
    child.on('close', (code) => reject(new Error(`the proxy exited ${code}: ${stderr}`)));
  });
  return {
    url,
    trace,
    /** SIGTERM, as a host ending it would: the exit code and everything it wrote to stderr. */
    async stop(): Promise<{ code: number | null; stderr: string }> {
      child.kill('SIGTERM');
      const code = await exited;
      proxies.delete(child);
      return { code, stderr };
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
    const [good, bad] = [await outcome('none'), await outcome('progress-after-cancel')];
    expect(good.verdict['server-silent-after-cancel']?.status, JSON.stringify(good.verdict)).toBe('pass');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status).toBe('pass');
    expect(bad.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(bad.verdict['server-silent-after-cancel']?.summary).toMatch(/sent progress for tools\/call slow_job/);
    expect(bad.stderr).toMatch(/FAIL +server-silent-after-cancel/);
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
    const { code } = await proxy.stop();
    upstream.close();
    expect(code).toBe(0);
    expect(posted).toMatchObject({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    expect(posted.headers['mcp-session-id']).toBe('s-1');
    expect(stream.body).toBe('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a"}}\n\n');
    expect(deleted.status).toBe(200);
    expect(upstream.seen.map((one) => `${one.method} ${one.url}`)).toEqual(['POST /mcp', 'GET /mcp', 'DELETE /mcp']);
    expect(upstream.seen[0]?.body).toBe(body);
    expect(upstream.seen[0]?.headers).toMatchObject({ ...headers, host: `127.0.0.1:${upstream.port}` });
    const trace = readFileSync(proxy.trace, 'utf8');
    expect(trace).not.toMatch(/secret|user:pw|pw@/);
    const { read } = judged(proxy.trace);
    expect(read.header.server).toBe(`http://127.0.0.1:${upstream.port}/mcp`);
    expect(
      read.transcript.messages.map((one) => [one.from, one.stream, (one.message as { method?: string }).method ?? 'response']),
    ).toEqual([
      ['client', 'POST 1', 'tools/list'],
      ['server', 'POST 1', 'response'],
      ['server', 'GET 2', 'notifications/message'],
    ]);
    // The pretty-printed POST body is one trace line, written compact; the SSE event's data as it was sent.
    expect(trace).toMatch(/"from":"client","stream":"POST 1","message":\{"jsonrpc":"2.0","id":1,"method":"tools\/list"\}/);
    expect(trace).toMatch(/"from":"server","stream":"GET 2","message":\{"jsonrpc":"2.0","method":"notifications\/message"/);
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
