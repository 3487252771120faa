import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../src/judges/trace-format.js';
import { chunks, messages, random } from './random-messages.js';
import { type Answer, post, proxyTo, upstream } from './through-proxy.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-http-passthrough-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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
