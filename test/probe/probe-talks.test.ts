/**
 * The probe talks while it runs (issue 48): against a tool that never answers, a default run of `mcprely probe` writes a
 * line on stderr as each check starts and ends — read here from a pipe, not a terminal — names the stall the moment
 * the limit passes, does not wait a full limit again, ends within 90 s, and leads its summary with the stall. Slow (a
 * default run waits its full 65 s once): in the LIVE list of vitest.live.config.ts.
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PROBE_CHECKS } from '../../src/probe/run-probe.js';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';
import { HOSTILE } from './probe-harness.js';

interface TimedRun {
  readonly status: number | null;
  readonly stdout: string;
  /** Each stderr line with when it arrived (ms after the start). */
  readonly lines: readonly { readonly at: number; readonly text: string }[];
  readonly ms: number;
}

const children = new Set<ReturnType<typeof spawn>>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Runs the built CLI with stderr a pipe, timing each line of it as it arrives. */
function run(args: readonly string[]): Promise<TimedRun> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let pending = '';
    const lines: { at: number; text: string }[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: Date.now() - started, text });
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      children.delete(child);
      if (pending !== '') lines.push({ at: Date.now() - started, text: pending });
      resolve({ status, stdout, lines, ms: Date.now() - started });
    });
  });
}

const NEVER_ANSWERS = ['probe', '--stdio', `node ${HOSTILE} never-answers`, '--operation', 'slow_job'];

describe.concurrent('probe: a tool that never answers', () => {
  it('a default run: a line as each check starts and ends, the stall named at once, done within 90 s', { timeout: 120_000 }, async () => {
    const { status, stdout, lines, ms } = await run(NEVER_ANSWERS);
    expect(ms).toBeLessThanOrEqual(90_000);
    const texts = lines.map((line) => line.text);
    // Each check's start, then its end, in the order the checks run; the stall between the progress check's two lines.
    const expected = PROBE_CHECKS.flatMap((check, index) => {
      const head = `probe [${index + 1}/${PROBE_CHECKS.length}] ${check.id}: `;
      return [`${head}started`, ...(check.id === 'progress' ? ['probe progress: slow_job has not answered within 65 s'] : []), `${head}`];
    });
    expect(texts.length, texts.join('\n')).toBe(expected.length);
    for (const [at, text] of texts.entries()) expect(text.startsWith(expected[at]!), `line ${at + 1}: ${text}`).toBe(true);
    expect(texts[0]).toBe(`probe [1/${PROBE_CHECKS.length}] progress: started, waiting up to 65 s for slow_job (its response)`);
    expect(texts[1]).toMatch(/^probe progress: slow_job has not answered within 65 s: no progress, no message at all;/);
    expect(texts[2]).toMatch(/^probe \[1\/\d+\] progress: failed after 65 s: slow_job never answered/);
    expect(texts[4]).toMatch(
      /cancel-before-completion: inconclusive after .*: nothing for request \d+ in the \d+ ms after the cancellation, but/,
    );
    // As it runs: the first line long before the limit, the stall the moment the limit passes, not at the end.
    expect(lines[0]!.at).toBeLessThan(15_000);
    expect(lines[1]!.at).toBeGreaterThanOrEqual(64_000);
    expect(lines[1]!.at).toBeLessThan(lines.at(-1)!.at);
    // The summary's first line names the stall and what it means for a host's timeouts, with the numbers played.
    const summary = stdout.split('\n').findIndex((line) => line.startsWith('Summary: '));
    const [first, counts] = stdout.split('\n').slice(summary, summary + 2);
    expect(first).toMatch(/^Summary: slow_job never answered: no response within 65 s \(no progress, no message at all\)\. /);
    expect(first).toMatch(/idle timeout of 10 s \(defaults\) gives up on every call after 10 s; one keeping only the maximum of 30 s/);
    expect(first).toMatch(/a host with neither timeout waits for ever/);
    expect(counts).toMatch(/^ +\d+ passed, 1 failed, /);
    expect(status).toBe(1);
  });

  it('--quiet: no line at all on stderr', { timeout: 60_000 }, async () => {
    const { status, lines, stdout } = await run([...NEVER_ANSWERS, '--quiet', '--max-time', '12500', '--idle-timeout', '2000']);
    expect(lines.map((line) => line.text)).toEqual([]);
    expect(stdout).toMatch(/^Summary: slow_job never answered/m);
    expect(status).toBe(1);
  });
});
