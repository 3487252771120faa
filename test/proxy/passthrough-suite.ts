import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../src/judges/trace-format.js';
import { LineTap } from '../../src/proxy/line-tap.js';
import { chunks, messages, random } from './random-messages.js';
import { type Answer, post, proxyTo, throughEcho, upstream } from './through-proxy.js';

/**
 * The proxy's passthrough properties, one case per seed: npm test runs a few seeds (passthrough.property.test.ts,
 * http-passthrough.property.test.ts), npm run test:live the rest (passthrough-seeds.test.ts).
 */

/** LineTap: however the bytes are cut, the same lines come out, in order (in process). */
export function lineTapSeeds(seeds: readonly number[]): void {
  describe('LineTap', () => {
    it.each(seeds)('seed %i: however the bytes are cut, the same lines come out, in order', (seed) => {
      const next = random(seed);
      const lines = messages(next, 300, true);
      const seen: string[] = [];
      const tap = new LineTap((text) => seen.push(text));
      for (const chunk of chunks(Buffer.from(`${lines.join('\n')}\n`), next)) tap.write(chunk);
      tap.end();
      expect(seen).toEqual(lines);
    });
  });
}

/** `mcprely proxy` over stdio in front of an echo server: random messages in random chunks come back byte for byte. */
export function stdioPassthroughSeeds(seeds: readonly number[]): void {
  const work = mkdtempSync(join(tmpdir(), 'mcprely-passthrough-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  describe('mcprely proxy passes bytes through unchanged', () => {
    it.each(seeds)('seed %i: random messages in random chunks, large ones among them, come back byte for byte', async (seed) => {
      const next = random(seed);
      const lines = messages(next, 400, true);
      const input = Buffer.from(`${lines.join('\n')}\n`);
      const trace = join(work, `seed-${seed}.jsonl`);
      const run = await throughEcho(work, chunks(input, next), trace);
      expect(run.code).toBe(0);
      expect(run.output.equals(input)).toBe(true);
      const read = readTrace(readFileSync(trace, 'utf8'));
      if (!read.ok) throw new Error(JSON.stringify(read.problems));
      // Each line twice: as the client sent it and as the echo server sent it back.
      expect(read.transcript.messages.filter((one) => one.from === 'client').map((one) => JSON.stringify(one.message))).toEqual(lines);
      expect(read.transcript.messages.filter((one) => one.from === 'server')).toHaveLength(lines.length);
    });
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

/** `mcprely proxy --url`: HTTP bodies and SSE streams of random messages in random pieces pass both ways unchanged. */
export function httpPassthroughSeeds(seeds: readonly number[]): void {
  const work = mkdtempSync(join(tmpdir(), 'mcprely-http-passthrough-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  describe('mcprely proxy --url passes HTTP bodies and SSE streams through unchanged', () => {
    it.each(seeds)(
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
        const proxy = await proxyTo(work, server.port, trace);
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
  });
}
