// init --observe against real servers, then lint and drift of what it wrote: server-everything over stdio and over
// Streamable HTTP (each read-only tool probed, its long tool for about 35 s; drift probes it again), and the SDK 1.x
// server with and without --allow-mutations. Slow (about two minutes, the rows at once): in npm run test:live.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/findings/finding.js';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { EVERYTHING, freePort, SERVERS, startHttp, stopServers } from './probe-harness.js';

afterAll(stopServers);

const dir = mkdtempSync(join(tmpdir(), 'mcprely-init-observe-'));

/** init --observe of the server to a file; the text written and what init said on stderr. */
async function observe(
  name: string,
  server: readonly string[],
  extra: readonly string[] = [],
): Promise<{ text: string; stderr: string; file: string }> {
  const file = join(dir, `${name}.yaml`);
  const run = await runCliAsync(['init', '--observe', ...server, '-o', file, ...extra], { timeoutMs: 240_000 });
  expect(showsStackTrace(run.stderr), run.stderr).toBe(false);
  expect(run.status, run.stderr).toBe(0);
  return { text: readFileSync(file, 'utf8'), stderr: run.stderr, file };
}

/** The rule ids lint reports for the file. */
async function lintRules(file: string): Promise<string[]> {
  const run = await runCliAsync(['lint', file, '-f', 'json']);
  const report = JSON.parse(run.stdout) as { files: { findings: Finding[] }[] };
  return report.files.flatMap((entry) => entry.findings.map((finding) => finding.ruleId));
}

/** drift of the file against the server: exit code and findings. */
async function drift(file: string, server: readonly string[]): Promise<{ status: number | null; findings: Finding[]; output: string }> {
  const run = await runCliAsync(['drift', file, ...server, '-f', 'json'], { timeoutMs: 150_000 });
  const report = JSON.parse(run.stdout) as { files: { findings: Finding[] }[] };
  return { status: run.status, findings: report.files[0]!.findings, output: run.stdout + run.stderr };
}

const today = () => new Date().toISOString().slice(0, 10);

describe.concurrent('init --observe against server-everything, then lint and drift', () => {
  it.each([
    ['stdio', async () => ['--stdio', `node ${EVERYTHING} stdio`]],
    [
      'Streamable HTTP',
      async () => {
        const port = await freePort();
        await startHttp([EVERYTHING, 'streamableHttp'], { PORT: String(port) });
        return ['--url', `http://127.0.0.1:${port}/mcp`];
      },
    ],
  ] as const)(
    'over %s: the claims seen are written with the day, lint finds no placeholder, drift contradicts nothing',
    { timeout: 330_000 },
    async (transport, start) => {
      const probeArgs = await start();
      const initArgs = [probeArgs[0] === '--stdio' ? '--from-stdio' : '--from-url', probeArgs[1]!];
      const { text, stderr, file } = await observe(`everything-${transport === 'stdio' ? 'stdio' : 'http'}`, initArgs);
      const day = today();
      expect(stderr).toMatch(/^probing trigger-long-running-operation \(\d+ of \d+\), up to 60 s$/m);
      // Each probe check told as it starts (with its limit) and ends, the lines mcprely probe writes.
      expect(stderr).toMatch(/^probe \[1\/\d+\] progress: started, waiting up to .* for trigger-long-running-operation/m);
      expect(stderr).toMatch(/^probe \[1\/\d+\] progress: (passed|failed|inconclusive|not observable) after /m);
      // The mutating tools are not called without --allow-mutations.
      expect(stderr).not.toMatch(
        /probing (toggle-simulated-logging|toggle-subscriber-updates|simulate-research-query|gzip-file-as-resource)/,
      );
      expect(text).toContain(`specVersion: "2025-11-25" # seen on the wire ${day}: the server speaks 2025-11-25`);
      expect(text).toContain(`emits: true # seen on the wire ${day}: 5 progress notifications in a run of`);
      // About every 2 s: the median gap rounded down to two significant figures (2 096 ms → 2 000).
      expect(text).toMatch(new RegExp(`minIntervalMs: (19|20)00 # seen on the wire ${day}: progress about every (19|20)00 ms`));
      expect(text).toMatch(new RegExp(`stopsWork: never # seen on the wire ${day}: the server sent progress .* after the cancellation`));
      expect(text).toContain('# DECIDE retry, idempotency: not observable on the wire: whether a retry repeats the side effect');
      expect(text).toContain('# DECIDE the claims the probe can see: not probed: it may change state');
      if (transport !== 'stdio') {
        expect(text).toMatch(new RegExp(`sseHeaders: \\{ .* \\} # seen on the wire ${day}: `));
      }
      const rules = await lintRules(file);
      expect(rules).not.toContain('manifest-placeholders');
      expect(rules).not.toContain('manifest-schema');
      const drifted = await drift(file, probeArgs);
      expect(drifted.findings, drifted.output).toEqual([]);
      expect(drifted.status, drifted.output).toBe(0);
    },
  );

  it('the SDK 1.x server: its mutation is called only with --allow-mutations, named on stderr before any call', {
    timeout: 120_000,
  }, async () => {
    const server = ['--from-stdio', `node ${SERVERS}/sdk-v1-server.mjs stdio`];
    const safe = await observe('sdk-v1', server, ['--quiet']);
    expect(safe.stderr).not.toMatch(/probing charge/);
    // --quiet: the tools probed are named, the checks are not.
    expect(safe.stderr).toMatch(/^probing /m);
    expect(safe.stderr).not.toMatch(/^probe \[/m);
    expect(safe.text).toContain(
      '# DECIDE the claims the probe can see: not probed: it may change state (its annotations say readOnlyHint: false)',
    );
    const allowed = await observe('sdk-v1-mutations', server, ['--allow-mutations']);
    const lines = allowed.stderr.split('\n');
    const named = lines.indexOf('--allow-mutations: calling tools that may change state: charge');
    expect(named, allowed.stderr).toBeGreaterThanOrEqual(0);
    expect(named).toBeLessThan(lines.findIndex((line) => line.startsWith('probing ')));
    expect(allowed.stderr).toMatch(/^probing charge \(2 of 2\)/m);
    expect(allowed.text).toMatch(/- name: charge\n(?: {4}.*\n)*? {6}invalidOrLate: ignore # seen on the wire/);
  });
});
