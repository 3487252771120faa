import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConnection } from '../../src/probe/http-connection.js';
import { ProbeSession } from '../../src/probe/session.js';
import { WireLog } from '../../src/probe/wire-log.js';

/**
 * A server on a loaded machine gets to a POSTed cancellation late: it answers the POST 400 ms after it came and keeps
 * writing progress on the request's stream until then (it had not read it). The answer to the POST is the fence:
 * what came before it crossed the cancellation, though it came past the in-flight allowance counted from the sending.
 */
const HOLD_MS = 400;
let port = 0;
const server = createServer(async (req, res) => {
  if (req.method !== 'POST') return res.writeHead(405).end();
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const message = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method: string; params?: Record<string, unknown> };
  const json = (reply: unknown) =>
    res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 's1' }).end(JSON.stringify(reply));
  if (message.method === 'notifications/cancelled') return setTimeout(() => res.writeHead(202).end(), HOLD_MS);
  if (message.id === undefined) return res.writeHead(202).end();
  if (message.method === 'server/discover')
    return json({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  if (message.method === 'initialize')
    return json({
      jsonrpc: '2.0',
      id: message.id,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'late-reader', version: '0' } },
    });
  if (message.method !== 'tools/call') return json({ jsonrpc: '2.0', id: message.id, result: {} });
  const token = (message.params?.['_meta'] as { progressToken?: string } | undefined)?.progressToken;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  let value = 0;
  const timer = setInterval(() => progress(res, token, ++value), 50);
  // It reads the cancellation only when it answers its POST, and stops at once then.
  cancelled.then(() => setTimeout(() => clearInterval(timer), HOLD_MS));
  res.on('close', () => clearInterval(timer));
});
let cancel: () => void = () => undefined;
const cancelled = new Promise<void>((resolve) => (cancel = resolve));
function progress(res: ServerResponse, token: string | undefined, value: number): void {
  res.write(
    `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value } })}\n\n`,
  );
}

beforeAll(() =>
  new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())).then(() => {
    port = (server.address() as AddressInfo).port;
  }),
);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a POSTed cancellation the server read late (Streamable HTTP, 2025-11-25)', () => {
  it('what came before the answer to its POST crossed it; nothing broke the silence', async () => {
    const clock = () => performance.now();
    const connection = new HttpConnection({ url: new URL(`http://127.0.0.1:${port}/mcp`), headers: [] }, new WireLog(clock), clock);
    const session = new ProbeSession(connection, new WireLog(clock));
    try {
      expect((await session.open(undefined, 3000)).ok).toBe(true);
      const call = await session.call('tools/call', { name: 'slow_job', arguments: {} }, true, 'test');
      expect(await call.inbox.next(() => true, 2000)).toBeDefined();
      cancel();
      await session.cancel(call, 'test', 'test');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Progress every 50 ms for the 400 ms the POST was held: past the allowance (100 ms) counted from the sending.
      expect(call.inbox.crossedCancellation).toBeGreaterThan(0);
      expect(call.inbox.afterSilence).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
