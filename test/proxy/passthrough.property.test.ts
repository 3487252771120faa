import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineTap, MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { chunks, messages, random } from './random-messages.js';
import { throughEcho } from './through-proxy.js';

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

describe('mcprely proxy passes bytes through unchanged', () => {
  it.each([11, 12, 13])('seed %i: random messages in random chunks, large ones among them, come back byte for byte', async (seed) => {
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
