import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineTap, MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';
import { peakRssHook } from './peak-rss.js';
import { chunks, messages, random } from './random-messages.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-passthrough-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('LineTap', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: however the bytes are cut, the same lines come out, in order', (seed) => {
    const next = random(seed);
    const lines = messages(next, 300, true);
    const seen: string[] = [];
    const tap = new LineTap((text) => seen.push(text));
    for (const chunk of chunks(Buffer.from(`${lines.join('\n')}\n`), next)) tap.write(chunk);
    tap.end();
    expect(seen).toEqual(lines);
  });
  it('a line past the recording limit is cut once, and the next line is whole', () => {
    const seen: [string, boolean][] = [];
    const tap = new LineTap((text, cut) => seen.push([text.slice(0, 10), cut]));
    const long = 'x'.repeat(MAX_RECORDED_LINE + 10);
    tap.write(`${long.slice(0, 1000)}`);
    tap.write(`${long.slice(1000)}\nnext\r\nlast`);
    tap.end();
    expect(seen).toEqual([
      ['xxxxxxxxxx', true],
      ['next', false],
      ['last', false],
    ]);
  });
});

/**
 * The proxy in front of an echo server (what the client writes comes back): random messages in random chunks, large
 * ones and a flood, come back byte for byte; every line is in the trace; the proxy's memory stays bounded.
 */
function throughEcho(pieces: readonly Buffer[], trace: string): Promise<{ output: Buffer; maxRssMb: number; code: number | null }> {
  const { hook, peakMb } = peakRssHook(work);
  const echo = 'process.stdin.pipe(process.stdout)';
  const child = spawn(process.execPath, ['--require', hook, CLI, 'proxy', '--record', trace, '--', process.execPath, '-e', echo], {
    cwd: REPO_ROOT,
  });
  const received: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => received.push(chunk));
  child.stderr.resume();
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ output: Buffer.concat(received), maxRssMb: peakMb(), code }));
    (async () => {
      for (const piece of pieces) if (!child.stdin.write(piece)) await new Promise((drained) => child.stdin.once('drain', drained));
      child.stdin.end();
    })();
  });
}

describe('mcprely proxy passes bytes through unchanged', () => {
  it.each([11, 12, 13])('seed %i: random messages in random chunks, large ones among them, come back byte for byte', async (seed) => {
    const next = random(seed);
    const lines = messages(next, 400, true);
    const input = Buffer.from(`${lines.join('\n')}\n`);
    const trace = join(work, `seed-${seed}.jsonl`);
    const run = await throughEcho(chunks(input, next), trace);
    expect(run.code).toBe(0);
    expect(run.output.equals(input)).toBe(true);
    const read = readTrace(readFileSync(trace, 'utf8'));
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    // Each line twice: as the client sent it and as the echo server sent it back.
    expect(read.transcript.messages.filter((one) => one.from === 'client').map((one) => JSON.stringify(one.message))).toEqual(lines);
    expect(read.transcript.messages.filter((one) => one.from === 'server')).toHaveLength(lines.length);
  });

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
      const run = await throughEcho([input], join(work, `flood-${bigMessages}.jsonl`));
      expect(run.output.equals(input)).toBe(true);
      return { mb: input.length / 1e6, rss: run.maxRssMb };
    };
    const [smaller, larger] = [await flood(1_250), await flood(2_500)];
    expect(larger.mb).toBeGreaterThan(1.9 * smaller.mb);
    console.log(
      `proxy peak RSS: ${smaller.rss.toFixed(0)} MB for ${smaller.mb.toFixed(0)} MB, ${larger.rss.toFixed(0)} MB for ${larger.mb.toFixed(0)} MB`,
    );
    expect(larger.rss).toBeLessThan(smaller.rss * 1.3);
    expect(larger.rss).toBeLessThan(150);
  }, 90_000);
});
