import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioHttpServer } from '../../src/probe-client/http-server.js';
import { RELAY_LIMITS, startHttpRelay } from '../../src/proxy/http-relay.js';
import type { ListenerLimits } from '../../src/recording/http-listener.js';
import { LOOPBACK_ONLY } from '../helpers/loopback-guard.js';

/** Short limits, so that the test sees them act: the request's head within 300 ms, all of it within 600 ms. */
const LIMITS: ListenerLimits = { headersTimeoutMs: 300, requestTimeoutMs: 600 };
/** A response stream that lasts longer than either limit. */
const STREAM_MS = 900;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** An upstream that answers initialize at once, and every other POST with an SSE stream: an event at once, the answer after STREAM_MS. */
async function streamingUpstream(): Promise<string> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (body.includes('"initialize"'))
        return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":0,"result":{}}');
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
      setTimeout(() => res.end('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'), STREAM_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

/** Each listener with the short limits: its endpoint, and the bytes of a session's first request (an SSE stream). */
const LISTENERS = [
  {
    name: 'the proxy relay',
    async start() {
      const relay = await startHttpRelay(
        { url: new URL(await streamingUpstream()), headers: [] },
        { host: '127.0.0.1', port: 0 },
        { message() {}, stream() {} },
        LOOPBACK_ONLY,
        { ...RELAY_LIMITS, ...LIMITS },
      );
      closers.push(() => relay.close());
      return relay.url;
    },
  },
  {
    name: 'the probe-client scenario server',
    async start() {
      const server = new ScenarioHttpServer({ holdMs: 5000 }, () => undefined, LOOPBACK_ONLY, LIMITS);
      closers.push(() => server.close('the test ended'));
      return server.listen({ host: '127.0.0.1', port: 0 });
    },
  },
];

/** Bytes written `gapMs` apart; resolves with what came back and when the server closed the connection (ms). */
function trickle(
  url: string,
  parts: readonly string[],
  gapMs: number,
): Promise<{ readonly answer: string; readonly closedAfterMs: number }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const opened = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let index = 0;
    const timer = setInterval(() => {
      if (index < parts.length) socket.write(parts[index++] as string);
    }, gapMs);
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: performance.now() - opened });
    });
    // Past every limit: a listener that kept the connection this long failed the test.
    setTimeout(() => socket.destroy(), 2500);
  });
}

const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
  `Accept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;

describe.each(LISTENERS)('$name under slow senders', ({ start }) => {
  it('closes a connection whose head trickles in (408) once the head limit passes', async () => {
    const url = await start();
    const slow = await trickle(url, [...head(new URL(url).pathname, 2)], 50);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.closedAfterMs).toBeLessThan(LIMITS.headersTimeoutMs + 400);
  });

  it('closes a connection whose body trickles in (408) once the request limit passes', async () => {
    const url = await start();
    const slow = await trickle(url, [head(new URL(url).pathname, 100), ...'{'.repeat(100)], 50);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.closedAfterMs).toBeGreaterThan(LIMITS.requestTimeoutMs - 100);
    expect(slow.closedAfterMs).toBeLessThan(LIMITS.requestTimeoutMs + 400);
  });

  it('a response stream lasts past both limits (they bound the request, never the answer)', async () => {
    const url = await start();
    const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}';
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    const session = init.headers.get('mcp-session-id');
    await init.text();
    const at = performance.now();
    const call = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(session === null ? {} : { 'mcp-session-id': session }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'answers_after', arguments: { ms: STREAM_MS } },
      }),
    });
    expect(call.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(await call.text()).toMatch(/"id":1,"result"/);
    expect(performance.now() - at).toBeGreaterThan(LIMITS.requestTimeoutMs);
  });
});
