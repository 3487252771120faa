import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../src/judges/trace-format.js';
import { spawnHttpProxy } from './http-proxy-process.js';
import { peakRssHook } from './peak-rss.js';
import { chunks, messages, random } from './random-messages.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-http-passthrough-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the upstream answers each POST with: the response's bytes, in the pieces it writes them. */
interface Answer {
  readonly type: 'text/event-stream' | 'application/json';
  readonly pieces: readonly Buffer[];
}

/** An upstream that keeps each POST body as it arrived and answers with the next scripted answer, piece by piece. */
function upstream(answers: Answer[]): Promise<{ port: number; bodies: Buffer[]; server: Server }> {
  const bodies: Buffer[] = [];
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    bodies.push(Buffer.concat(parts));
    const answer = answers.shift();
    if (answer === undefined) return res.writeHead(500).end();
    res.writeHead(200, { 'content-type': answer.type, 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    for (const piece of answer.pieces) {
      if (!res.write(piece)) await new Promise((drained) => res.once('drain', drained));
      // A turn between pieces, so they leave as separate writes (and often separate TCP segments).
      await new Promise((turn) => setImmediate(turn));
    }
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, bodies, server })),
  );
}

/** `mcprely proxy --url` with its peak memory reported at exit; resolves once it listens. */
async function proxyTo(port: number, trace: string) {
  const { hook, peakMb } = peakRssHook(work);
  const proxy = await spawnHttpProxy(`http://127.0.0.1:${port}/mcp`, ['--record', trace], ['--require', hook]);
  return {
    url: proxy.url,
    async stop() {
      const { code } = await proxy.stop();
      return { code, peakMb: peakMb() };
    },
  };
}

/** POSTs `body` in `pieces` and reads the whole response as bytes. */
function post(url: string, pieces: readonly Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve(Buffer.concat(parts)));
      },
    );
    req.on('error', reject);
    (async () => {
      for (const piece of pieces) if (!req.write(piece)) await new Promise((drained) => req.once('drain', drained));
      req.end();
    })();
  });
}

/** The messages as an SSE stream: LF or CRLF line ends, some event ids, keep-alive comments between events. */
function sse(lines: readonly string[], next: () => number): Buffer {
  const events = lines.map((line, index) => {
    const end = next() < 0.3 ? '\r\n' : '\n';
    const id = next() < 0.3 ? `id: e${index}${end}` : '';
    const comment = next() < 0.1 ? `: keep-alive${end}${end}` : '';
    return `${comment}${id}data: ${line}${end}${end}`;
  });
  return Buffer.from(events.join(''));
}

describe('mcprely proxy --url passes HTTP bodies and SSE streams through unchanged', () => {
  it.each([21, 22, 23])(
    'seed %i: random messages in random pieces, large ones among them, both ways byte for byte, each in the trace',
    async (seed) => {
      const next = random(seed);
      // Four exchanges: a POST body of one message answered by an SSE stream of many, or by one JSON body.
      const exchanges = Array.from({ length: 4 }, (_, index) => {
        const sent = messages(next, 1, true)[0] as string;
        const received = index % 2 === 0 ? messages(next, 150, true) : messages(next, 1, true);
        const bytes = index % 2 === 0 ? sse(received, next) : Buffer.from(received[0] as string);
        return {
          sent,
          received,
          answer: { type: index % 2 === 0 ? 'text/event-stream' : 'application/json', pieces: chunks(bytes, next) } as Answer,
        };
      });
      const server = await upstream(exchanges.map((exchange) => exchange.answer));
      const trace = join(work, `seed-${seed}.jsonl`);
      const proxy = await proxyTo(server.port, trace);
      const responses: Buffer[] = [];
      for (const exchange of exchanges) responses.push(await post(proxy.url, chunks(Buffer.from(exchange.sent), next)));
      const { code } = await proxy.stop();
      server.server.close();
      expect(code).toBe(0);
      for (const [index, exchange] of exchanges.entries()) {
        expect(server.bodies[index]?.equals(Buffer.from(exchange.sent)), `body ${index}`).toBe(true);
        expect(responses[index]?.equals(Buffer.concat(exchange.answer.pieces)), `response ${index}`).toBe(true);
      }
      const read = readTrace(readFileSync(trace, 'utf8'));
      if (!read.ok) throw new Error(JSON.stringify(read.problems));
      for (const [index, exchange] of exchanges.entries()) {
        const stream = `POST ${index + 1}`;
        const on = read.transcript.messages.filter((one) => one.stream === stream);
        expect(on.filter((one) => one.from === 'client').map((one) => JSON.stringify(one.message))).toEqual([exchange.sent]);
        expect(on.filter((one) => one.from === 'server').map((one) => JSON.stringify(one.message))).toEqual(exchange.received);
      }
    },
  );

  // As over stdio: memory follows the few hundred bytes the judges keep per message, not the payloads.
  it('SSE floods of about 50 and 200 MB pass whole; the proxy peaks alike in both (four times the bytes, not four times the memory)', async () => {
    const flood = async (bigEvents: number) => {
      const big = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'z'.repeat(40_000) } })}\n\n`;
      const small = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`;
      const pieces = [
        ...Array.from({ length: 200 }, () => Buffer.from(small.repeat(100))),
        ...Array.from({ length: bigEvents / 25 }, () => Buffer.from(big.repeat(25))),
      ];
      const server = await upstream([{ type: 'text/event-stream', pieces }]);
      const proxy = await proxyTo(server.port, join(work, `flood-${bigEvents}.jsonl`));
      const response = await post(proxy.url, [Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flood"}}')]);
      const { peakMb } = await proxy.stop();
      server.server.close();
      const sent = Buffer.concat(pieces);
      expect(response.equals(sent)).toBe(true);
      return { mb: sent.length / 1e6, rss: peakMb };
    };
    const [smaller, larger] = [await flood(1_250), await flood(5_000)];
    expect(larger.mb).toBeGreaterThan(3.5 * smaller.mb);
    console.log(
      `HTTP proxy peak RSS: ${smaller.rss.toFixed(0)} MB for ${smaller.mb.toFixed(0)} MB, ${larger.rss.toFixed(0)} MB for ${larger.mb.toFixed(0)} MB`,
    );
    // Payload kept would be linear (about 2.3× here); the heap sizing itself grows a little with more garbage (1.2–1.35× measured).
    expect(larger.rss).toBeLessThan(smaller.rss * 1.6);
    expect(larger.rss).toBeLessThan(160);
  }, 90_000);
});
