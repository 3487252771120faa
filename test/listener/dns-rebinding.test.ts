import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, showsStackTrace } from '../helpers/run-cli.js';
import { spawnListening } from '../proxy/http-proxy-process.js';

/**
 * DNS rebinding against the listeners mcprely opens, with real requests: a page that rebinds a name of its own to
 * 127.0.0.1 sends that name in Host and its own Origin. Both listeners refuse it (403, a JSON-RPC error, a line on
 * stderr), and the proxy never forwards it: the upstream counts every request it gets.
 */
const children = new Set<ChildProcessWithoutNullStreams>();
let upstream: Server;
let upstreamUrl: string;
const reached: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached.push(`${req.method} ${req.headers.host}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'u', version: '1' } },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => upstream.close(resolve));
});

interface Listener {
  readonly url: URL;
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** Starts `mcprely <args>` and resolves once it says where it listens. */
async function listener(args: readonly string[]): Promise<Listener> {
  const running = await spawnListening(args);
  children.add(running.child);
  return {
    url: new URL(running.url),
    async stop() {
      const stopped = await running.stop();
      children.delete(running.child);
      return stopped;
    },
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rebinding-page', version: '1' } },
});

/** A POST initialize to `url` with these Host and Origin headers (Host as a browser would send it). */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        // An SSE answer stays open: what came first is enough.
        setTimeout(() => {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        }, 500).unref();
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

const REFUSED = { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^Forbidden: /) } };

const LISTENERS = [
  ['proxy', () => ['proxy', '--url', upstreamUrl, '--listen', '127.0.0.1:0']],
  ['probe-client', () => ['probe-client', '--listen', '127.0.0.1:0']],
] as const;

describe.each(LISTENERS)('mcprely %s --listen: DNS rebinding', (name, args) => {
  it('a foreign Host and a foreign Origin get 403 with a JSON-RPC error and a line on stderr; nothing reaches the upstream', async () => {
    const before = reached.length;
    const running = await listener(args());
    const port = running.url.port;
    const host = await post(running.url, { host: `evil.example:${port}` });
    const hostAndOrigin = await post(running.url, { host: `evil.example:${port}`, origin: `http://evil.example:${port}` });
    const origin = await post(running.url, { origin: 'http://evil.example' });
    const nullOrigin = await post(running.url, { origin: 'null' });
    for (const refused of [host, hostAndOrigin, origin, nullOrigin]) {
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual(REFUSED);
    }
    expect(reached.length).toBe(before);
    // The same request with this machine's names is answered (and, through the proxy, reaches the upstream).
    for (const loopback of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answered = await post(running.url, { host: loopback, origin: 'http://localhost:5173' });
      expect(answered.status).toBe(200);
      expect(answered.body).toMatch(/"protocolVersion"/);
    }
    if (name === 'proxy')
      expect(reached.slice(before)).toEqual([
        `POST ${running.url.host.replace(/:\d+$/, '')}:${new URL(upstreamUrl).port}`,
        expect.any(String),
      ]);
    const { stderr } = await running.stop();
    expect(stderr).toMatch(
      new RegExp(`mcprely ${name}: refused a request \\(403\\): Host evil\\.example:${port} is not a name of this listener`),
    );
    expect(stderr).toMatch(
      new RegExp(`mcprely ${name}: refused a request \\(403\\): a page of another origin \\(http://evil\\.example\\)`),
    );
    expect(showsStackTrace(stderr)).toBe(false);
  });

  it('--allow-host and --allow-origin widen the checks to the names given, and only those', async () => {
    const before = reached.length;
    const running = await listener([...args(), '--allow-host', 'mcp.example.test', '--allow-origin', 'https://app.example.test']);
    const port = running.url.port;
    const allowed = await post(running.url, { host: `mcp.example.test:${port}`, origin: 'https://app.example.test' });
    expect(allowed.status).toBe(200);
    const other = await post(running.url, { host: `mcp.example.test:${port}`, origin: 'https://other.example.test' });
    expect(other.status).toBe(403);
    const evil = await post(running.url, { host: `evil.example:${port}` });
    expect(evil.status).toBe(403);
    if (name === 'proxy') expect(reached.length).toBe(before + 1);
    await running.stop();
  });
});

describe('the allowances are checked before anything listens', () => {
  it.each([
    [['proxy', '--url', 'http://127.0.0.1:9/mcp', '--allow-host', 'http://x'], /--allow-host http:\/\/x: give a host name/],
    [['probe-client', '--listen', '0', '--allow-origin', 'app.example.test'], /--allow-origin app\.example\.test: give an origin/],
    [['proxy', '--stdio', 'node x.js', '--allow-host', 'mcp.lan'], /--allow-host is for a Streamable HTTP upstream/],
    [['probe-client', '--stdio', '--allow-origin', 'https://a.test'], /--allow-host and --allow-origin widen an HTTP listener/],
  ])('mcprely %j exits 2 and says what to give', async (args, message) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT });
    children.add(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    children.delete(child);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(showsStackTrace(stderr)).toBe(false);
  });
});
