import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { RELAY_LIMITS, startHttpRelay } from '../../src/proxy/http-relay.js';
import { LOOPBACK_ONLY } from '../helpers/loopback-guard.js';

/** The relay's idle upstream connections closed after 200 ms here (4 s in use), so that the test sees it. */
const IDLE_MS = 200;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/**
 * An upstream that keeps connections alive for 10 s (and says so in `Keep-Alive: timeout=10`) and counts them: each
 * POST is answered as JSON at once, or (`"silent"`) with an SSE stream that says nothing for 3 idle periods first.
 */
async function countingUpstream() {
  const sockets: Socket[] = [];
  const closedByRelay: Socket[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (!body.includes('silent'))
        return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).flushHeaders();
      setTimeout(() => res.end('data: {"jsonrpc":"2.0","id":2,"result":{}}\n\n'), 3 * IDLE_MS);
    });
  });
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.on('end', () => closedByRelay.push(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const relay = await startHttpRelay(
    { url: new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`), headers: [] },
    { host: '127.0.0.1', port: 0 },
    { message() {}, stream() {} },
    LOOPBACK_ONLY,
    { ...RELAY_LIMITS, upstreamIdleMs: IDLE_MS },
  );
  closers.push(() => relay.close());
  const post = async (body: string) =>
    (await fetch(relay.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
  return { sockets, closedByRelay, post };
}

describe('the relay’s connections to the upstream', () => {
  it('an idle one is closed by the relay before the server’s keep-alive ends, so no request is sent on one the server is closing', async () => {
    const upstream = await countingUpstream();
    expect(await upstream.post('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toMatch(/"result"/);
    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
    // The relay ended the idle connection itself, long before the server's 10 s.
    expect(upstream.closedByRelay).toHaveLength(1);
    expect(await upstream.post('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toMatch(/"result"/);
    expect(upstream.sockets).toHaveLength(2);
  });

  it('one in use is not: an SSE stream silent for longer than the idle limit is relayed whole', async () => {
    const upstream = await countingUpstream();
    expect(await upstream.post('{"jsonrpc":"2.0","id":2,"method":"silent"}')).toMatch(/"id":2,"result"/);
    expect(upstream.closedByRelay).toHaveLength(0);
  });

  it('an upstream that answers 101 Switching Protocols is a 502 to the host, not a request left waiting', async () => {
    const upstream = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    const relay = await startHttpRelay(
      { url: new URL(`http://127.0.0.1:${(upstream.address() as { port: number }).port}/mcp`), headers: [] },
      { host: '127.0.0.1', port: 0 },
      { message() {}, stream() {} },
      LOOPBACK_ONLY,
    );
    closers.push(() => relay.close());
    const answer = await fetch(relay.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toMatch(/did not answer \(an unexpected 101 Switching Protocols\)/);
  });
});
