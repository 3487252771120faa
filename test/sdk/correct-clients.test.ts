import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/run-cli.js';
import { type ClientReport, serverFailures } from '../probe-client/client-report-file.js';

/**
 * Every scenario leaves a correct client room to pass at the timeouts hosts use: a raw client that does what the
 * revision asks (cancels at its timeout with the revision's signal, resumes a dropped stream after the server's
 * `retry:` where resumption exists, sends a lost call again under a new id where it does not, retries a write with
 * its key) passes each scenario at a 2 s timeout, and the drops at 10 s too — no race with the client's own defaults.
 * About 20 real client and server processes: in test:sdk, with the official libraries' rows.
 */
const RAW_CLIENT = fileURLToPath(new URL('../probe-client/clients/raw-client.mjs', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'mcprely-correct-clients-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Revision = '2025-11-25' | '2026-07-28';

/** What a correct client does in each scenario, beyond cancelling at its timeout. */
const CORRECT: Readonly<Record<string, (revision: Revision) => readonly string[]>> = {
  never_answers: () => [],
  // 2025-11-25: answered within the timeout and left alone. 2026-07-28: the server ends the stream with the answer, so
  // leaving it alone shows nothing; an answer later than the timeout shows the cancellation instead.
  answers_after: (revision) => ['--args', revision === '2025-11-25' ? '{"ms":500}' : '{"ms":6000}'],
  progress_forever: () => ['--progress'],
  progress_then_finish: () => ['--progress'],
  fails: () => [],
  slow_write: () => ['--retry', 'same-key'],
  drop_stream_resumable: (revision) => ['--progress', '--on-drop', revision === '2025-11-25' ? 'resume' : 'reissue'],
  drop_stream_unresumable: () => ['--progress', '--on-drop', 'reissue'],
};

let runs = 0;
async function correctClient(scenario: string, revision: Revision, timeoutMs: number) {
  const report = join(folder, `report-${++runs}.json`);
  // progress_forever ends only at the maximum: the client's one timer is its maximum there, twice the idle timeout.
  const giveUp = scenario === 'progress_forever' ? 2 * timeoutMs : timeoutMs;
  const client = [
    'node',
    RAW_CLIENT,
    '--revision',
    revision,
    '--scenario',
    scenario,
    '--give-up',
    String(giveUp),
    '--signal',
    revision === '2025-11-25' ? 'notification' : 'close',
    ...(CORRECT[scenario]?.(revision) ?? []),
  ];
  const run = await runCliAsync([
    'probe-client',
    '--idle-timeout',
    String(timeoutMs),
    '--max-timeout',
    String(2 * timeoutMs),
    '--report-json',
    report,
    '--run',
    client.map((word) => (/[\s'"{}]/.test(word) ? `'${word}'` : word)).join(' '),
  ]);
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as ClientReport;
  return { run, parsed, outcome: parsed.outcomes.find((one) => one.scenario === scenario) };
}

const ROWS = [
  ...Object.keys(CORRECT).flatMap((scenario) =>
    (['2025-11-25', '2026-07-28'] as const).map((revision) => [scenario, revision, 2000] as const),
  ),
  ...(['drop_stream_resumable', 'drop_stream_unresumable'] as const).flatMap((scenario) =>
    (['2025-11-25', '2026-07-28'] as const).map((revision) => [scenario, revision, 10_000] as const),
  ),
];

describe('a correct client passes every scenario at common timeouts', () => {
  it.concurrent.each(ROWS)('%s on %s HTTP at a %i ms timeout', { timeout: 60_000 }, async (scenario, revision, timeoutMs) => {
    const { run, parsed, outcome } = await correctClient(scenario, revision, timeoutMs);
    expect(serverFailures(parsed)).toEqual([]);
    // fails answers at once; where closing is the cancellation nothing is left for the client to do wrong.
    const unobservable = scenario === 'fails' && revision === '2026-07-28';
    expect({ status: outcome?.status, summary: outcome?.summary, failures: parsed.sessionFailures }).toEqual({
      status: unobservable ? 'not-observable' : 'pass',
      summary: unobservable
        ? expect.stringMatching(/not observable on 2026-07-28 over HTTP, where closing the stream is the cancellation/)
        : expect.any(String),
      failures: [],
    });
    expect(run.status).toBe(unobservable ? 2 : 0);
    // A stream dropped with ids says how soon to reconnect: half a progress interval (the TypeScript SDKs' default is 1 s).
    if (scenario === 'drop_stream_resumable')
      expect(run.stderr).toContain(`the server advised retry ${Math.round(Math.round(Math.min(1000, timeoutMs / 3)) / 2)} ms`);
    // Where the dropped stream can be resumed, the resumption gets the answer before the timeout: no cancellation was needed.
    if (scenario === 'drop_stream_resumable' && revision === '2025-11-25')
      expect(outcome?.cases.filter((one) => one.judge.includes('timeout') || one.judge.includes('cancel'))).toEqual([]);
  });
});
