import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineTap, MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-passthrough-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A seeded generator (mulberry32): a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = ['plain', 'héllo ✓', '日本語のテキスト', 'emoji 🧪🔥', 'quote " and \\ backslash', 'tab\there'];

/** Random JSON-RPC messages, one per line: requests, notifications, responses, some large, text of every width. */
function messages(next: () => number, count: number, large: boolean): string[] {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const text = TEXTS[Math.floor(next() * TEXTS.length)]!.repeat(
      large && next() < 0.05 ? 20_000 + Math.floor(next() * 60_000) : 1 + Math.floor(next() * 5),
    );
    const kind = next();
    const message =
      kind < 0.4
        ? { jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'echo', arguments: { text } } }
        : kind < 0.7
          ? { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: index, progress: index, message: text } }
          : { jsonrpc: '2.0', id: index, result: { content: [{ type: 'text', text }] } };
    lines.push(JSON.stringify(message));
  }
  return lines;
}

/** The bytes cut at random places (inside multi-byte characters too). */
function chunks(bytes: Buffer, next: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = next() < 0.1 ? 1 + Math.floor(next() * 3) : 1 + Math.floor(next() * 70_000);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

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
  const hook = join(work, `rss-${Math.random().toString(36).slice(2)}.cjs`);
  const report = `${hook}.txt`;
  // The peak of this process alone: /proc's VmHWM. getrusage's maxRSS starts from the parent's peak at fork, and
  // the test process holds hundreds of MB of flood by then.
  writeFileSync(
    hook,
    "process.on('exit',()=>{const fs=require('node:fs');let kb;try{kb=/VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status','utf8'))[1]}" +
      `catch{kb=process.resourceUsage().maxRSS}fs.writeFileSync(${JSON.stringify(report)},String(kb))})\n`,
  );
  const echo = 'process.stdin.pipe(process.stdout)';
  const child = spawn(process.execPath, ['--require', hook, CLI, 'proxy', '--record', trace, '--', process.execPath, '-e', echo], {
    cwd: REPO_ROOT,
  });
  const received: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => received.push(chunk));
  child.stderr.resume();
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ output: Buffer.concat(received), maxRssMb: Number(readFileSync(report, 'utf8')) / 1024, code }));
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
