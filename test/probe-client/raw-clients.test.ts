import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScenarioCase, ScenarioOutcome } from '../../src/probe-client/scenario-outcomes.js';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { type ClientReport, serverFailures } from './client-report-file.js';

const RAW_CLIENT = fileURLToPath(new URL('./clients/raw-client.mjs', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'mcprely-probe-client-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Played {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outcome: (scenario: string) => ScenarioOutcome;
  /** The cases of one judge about the scenario. */
  readonly cases: (scenario: string, judge: string) => readonly ScenarioCase[];
  readonly sessionFailures: readonly ScenarioCase[];
}

let runs = 0;
/** Runs `probe-client --run` with the raw client told `flags`, judged against a 300 ms idle timeout and a 1.2 s maximum. */
async function play(flags: readonly string[], options: readonly string[] = [], timeouts = true): Promise<Played> {
  const report = join(folder, `report-${++runs}.json`);
  const run = await runCliAsync([
    'probe-client',
    ...(timeouts ? ['--idle-timeout', '300', '--max-timeout', '1200'] : []),
    '--tolerance',
    '400',
    '--report-json',
    report,
    ...options,
    '--run',
    ['node', RAW_CLIENT, ...flags].map((word) => (/[\s'"{}]/.test(word) ? `'${word}'` : word)).join(' '),
  ]);
  let parsed: ClientReport = { outcomes: [], sessionFailures: [], sessions: [] };
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    // No report: the run stopped before judging (its status and stderr say why).
  }
  // The scenario server is mcprely's own: whatever the client did, it never fails a server judge.
  expect(serverFailures(parsed)).toEqual([]);
  const outcome = (scenario: string) => {
    const found = parsed.outcomes.find((one) => one.scenario === scenario);
    if (found === undefined) throw new Error(`no outcome for ${scenario}: ${run.stderr}`);
    return found;
  };
  return {
    ...run,
    outcome,
    cases: (scenario, judge) => outcome(scenario).cases.filter((one) => one.judge === judge),
    sessionFailures: parsed.sessionFailures,
  };
}

const statusOf = (cases: readonly ScenarioCase[]) => cases.map((one) => one.status);

describe('probe-client --run: raw clients, good and deliberately bad, one judge each way', () => {
  it.concurrent('2025-11-25: a POSTed cancellation at the idle timeout passes; a client that never cancels fails (exit 1)', async () => {
    const good = await play(['--give-up', '300', '--signal', 'notification']);
    expect(good.outcome('never_answers').status).toBe('pass');
    expect(statusOf(good.cases('never_answers', 'client-cancels-on-idle-timeout'))).toEqual(['pass']);
    expect(statusOf(good.cases('never_answers', 'client-cancels-with-revision-signal'))).toEqual(['pass']);
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/PASS {11}never_answers \(1 call\)/);
    const sarif = join(folder, 'silent.sarif');
    const page = join(folder, 'silent.html');
    const silent = await play(['--give-up', '300', '--signal', 'none'], ['-f', 'sarif', '-o', sarif, '--html', page]);
    // The session's page draws the messages that decided the failure.
    expect(readFileSync(page, 'utf8')).toMatch(/<svg[\s\S]*client-cancels-on-idle-timeout/);
    expect(silent.outcome('never_answers').status).toBe('fail');
    // The failures as findings in a lint format, at the trace lines.
    const results = JSON.parse(readFileSync(sarif, 'utf8')).runs[0].results as { ruleId: string }[];
    expect(results.map((result) => result.ruleId)).toContain('client-cancels-on-idle-timeout');
    expect(silent.outcome('never_answers').summary).toMatch(/passed its idle timeout \(300 ms\) without a cancellation/);
    expect(silent.status).toBe(1);
  });

  it.concurrent("2025-11-25: closing the stream instead of notifications/cancelled fails the revision's signal", async () => {
    const closes = await play(['--give-up', '300', '--signal', 'close']);
    expect(statusOf(closes.cases('never_answers', 'client-cancels-with-revision-signal'))).toEqual(['fail']);
    expect(closes.cases('never_answers', 'client-cancels-with-revision-signal')[0]?.message).toMatch(/a disconnect is not a cancellation/);
    expect(closes.status).toBe(1);
  });

  it.concurrent('2026-07-28: closing the stream passes; a POSTed notifications/cancelled that leaves it open fails', async () => {
    const closes = await play(['--revision', '2026-07-28', '--give-up', '300', '--signal', 'close']);
    expect(closes.outcome('never_answers').status).toBe('pass');
    expect(closes.cases('never_answers', 'client-cancels-with-revision-signal')[0]?.message).toMatch(/by closing its stream/);
    const posts = await play(['--revision', '2026-07-28', '--give-up', '300', '--signal', 'notification', '--linger', '1000']);
    expect(posts.outcome('never_answers').status).toBe('fail');
    expect(statusOf(posts.cases('never_answers', 'client-cancels-with-revision-signal'))).toEqual(['fail']);
    expect(posts.status).toBe(1);
  });

  it.concurrent('a cancellation after the answer fails; an answered call left alone passes', async () => {
    const late = await play(['--scenario', 'answers_after', '--args', '{"ms":50}', '--cancel-after-answer']);
    expect(late.outcome('answers_after').status).toBe('fail');
    expect(late.outcome('answers_after').summary).toMatch(
      /a cancellation of tools\/call answers_after \(id 2\) \d+ ms after its answer arrived/,
    );
    const calm = await play(['--scenario', 'answers_after', '--args', '{"ms":50}']);
    expect(calm.outcome('answers_after').status).toBe('pass');
    expect(calm.outcome('answers_after').summary).toMatch(/was answered and the client sent no cancellation for it/);
    expect(calm.status).toBe(0);
  });

  it.concurrent('progress_forever: cancelled at the maximum passes; progress taken as a reason to wait on fails the maximum', async () => {
    const atMax = await play(['--scenario', 'progress_forever', '--progress', '--give-up', '1200']);
    expect(statusOf(atMax.cases('progress_forever', 'client-enforces-maximum'))).toEqual(['pass']);
    const extended = await play(['--scenario', 'progress_forever', '--progress', '--give-up', '2800']);
    expect(extended.outcome('progress_forever').status).toBe('fail');
    expect(extended.cases('progress_forever', 'client-enforces-maximum')[0]?.message).toMatch(
      /after its maximum \(1200 ms, extended by progress\)/,
    );
  });

  it.concurrent('2026-07-28 drop: Last-Event-ID fails, the call sent again under a new id passes', async () => {
    const resumes = await play(['--revision', '2026-07-28', '--scenario', 'drop_stream_resumable', '--progress', '--on-drop', 'resume']);
    expect(resumes.outcome('drop_stream_resumable').status).toBe('fail');
    expect(resumes.cases('drop_stream_resumable', 'client-resumes-only-where-supported')[0]?.message).toMatch(
      /sent Last-Event-ID \d+, but 2026-07-28 has no resumption/,
    );
    const reissues = await play(['--revision', '2026-07-28', '--scenario', 'drop_stream_resumable', '--progress', '--on-drop', 'reissue']);
    expect(statusOf(reissues.cases('drop_stream_resumable', 'client-resumes-only-where-supported'))).toEqual(['pass']);
    const nothing = await play([
      '--revision',
      '2026-07-28',
      '--scenario',
      'drop_stream_unresumable',
      '--progress',
      '--on-drop',
      'nothing',
      '--linger',
      '1200',
    ]);
    expect(nothing.cases('drop_stream_unresumable', 'client-recovers-lost-request')[0]?.message).toMatch(/did not send it again/);
    expect(statusOf(reissues.cases('drop_stream_resumable', 'client-recovers-lost-request'))).toEqual(['pass']);
  });

  it.concurrent('2025-11-25 drop: resuming the dropped stream passes and gets the answer; resuming after a cancellation fails', async () => {
    const resumes = await play(['--scenario', 'drop_stream_resumable', '--progress', '--on-drop', 'resume']);
    expect(statusOf(resumes.cases('drop_stream_resumable', 'client-resumes-only-pending'))).toEqual(['pass']);
    expect(statusOf(resumes.cases('drop_stream_resumable', 'client-resumes-only-where-supported'))).toEqual(['pass']);
    const afterCancel = await play(['--scenario', 'never_answers', '--give-up', '300', '--resume', '2'], ['--idle-timeout', '300']);
    // never_answers sends no event, so nothing can be resumed: the resumption judge has nothing to decide.
    expect(afterCancel.cases('never_answers', 'client-resumes-only-pending')).toEqual([]);
    const progressing = await play(['--scenario', 'progress_forever', '--progress', '--give-up', '300', '--resume', '2']);
    expect(statusOf(progressing.cases('progress_forever', 'client-resumes-only-pending'))).toEqual(['fail', 'fail']);
    expect(progressing.cases('progress_forever', 'client-resumes-only-pending')[1]?.message).toMatch(
      /resumed the stream of tools\/call progress_forever \(id 2\) \d+ ms after the client cancelled it \(resumption 2\)/,
    );
  });

  it.concurrent('slow_write retried with the same key passes; with a new key, or the same request id, fails', async () => {
    const sameKey = await play(['--scenario', 'slow_write', '--give-up', '300', '--retry', 'same-key']);
    expect(statusOf(sameKey.cases('slow_write', 'client-retry-keeps-key'))).toEqual(['pass']);
    const newKey = await play(['--scenario', 'slow_write', '--give-up', '300', '--retry', 'new-key']);
    expect(newKey.outcome('slow_write').status).toBe('fail');
    expect(statusOf(newKey.cases('slow_write', 'client-retry-keeps-key'))).toEqual(['fail']);
    const sameId = await play(['--scenario', 'slow_write', '--give-up', '300', '--retry', 'same-id']);
    expect(statusOf(sameId.cases('slow_write', 'client-request-ids-unique'))).toEqual(['fail']);
  });

  it.concurrent('nothing exercised: every scenario inconclusive, exit 2 with a clear message', async () => {
    const idle = await play(['--skip-call']);
    expect(idle.status).toBe(2);
    expect(idle.stdout).toMatch(/nothing was exercised: no scenario passed or failed/);
    expect(idle.outcome('never_answers')).toMatchObject({ status: 'inconclusive', summary: 'the client never called it' });
    // Without a timeout to judge against, the timeout judges decide nothing: the right signal alone does not pass the scenario.
    const unmeasured = await play(['--give-up', '300'], [], false);
    expect(unmeasured.cases('never_answers', 'client-cancels-on-idle-timeout')).toEqual([]);
    expect(statusOf(unmeasured.cases('never_answers', 'client-cancels-with-revision-signal'))).toEqual(['pass']);
    expect(unmeasured.outcome('never_answers')).toMatchObject({
      status: 'inconclusive',
      summary: expect.stringMatching(/client-cancels-on-idle-timeout: no idle timeout to judge against/),
    });
    expect(unmeasured.status).toBe(2);
    expect(unmeasured.stdout).toMatch(/the client judged against no timeout \(give --idle-timeout and --max-timeout\)/);
  });

  it.concurrent("--manifest: each call judged against its operation's timeouts (operations named after the tools)", async () => {
    const manifest = join(folder, 'host.yaml');
    writeFileSync(
      manifest,
      [
        'mcprely: 1',
        'specVersion: "2025-11-25"',
        'server:',
        '  name: host-under-test',
        '  transports: [streamable-http]',
        'operations:',
        '  - name: never_answers',
        '    method: tools/call',
        '    sideEffect: none',
        '    timeouts: { idleMs: 300, maxMs: 1200 }',
        '',
      ].join('\n'),
    );
    const onTime = await play(['--give-up', '300'], ['--manifest', manifest], false);
    expect(statusOf(onTime.cases('never_answers', 'client-cancels-on-idle-timeout'))).toEqual(['pass']);
    const late = await play(['--give-up', '1500'], ['--manifest', manifest], false);
    expect(late.outcome('never_answers').summary).toMatch(/was cancelled \d+ ms after its idle timeout \(300 ms\)/);
    expect(late.status).toBe(1);
  });

  it.concurrent('a client command that cannot start, or no way to meet the client: exit 2, no stack trace', async () => {
    const missing = await runCliAsync(['probe-client', '--run', 'no-such-program-mcprely']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/error: --run: no-such-program-mcprely: no such program/);
    const none = await runCliAsync(['probe-client']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/give one way to meet the client/);
    for (const run of [missing, none]) expect(showsStackTrace(run.stderr)).toBe(false);
  });
});

describe('a client that ends before any scenario', () => {
  it('is reported with its exit and its last line on stderr (exit 2: nothing exercised)', async () => {
    const report = join(folder, 'crashed.json');
    const crash = "console.error('connecting…'); console.error('Error: INVALID_RESULT at tools/list'); process.exit(1)";
    const run = await runCliAsync(['probe-client', '--idle-timeout', '300', '--report-json', report, '--run', `node -e "${crash}"`]);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('the client exited 1 before any scenario: Error: INVALID_RESULT at tools/list');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
      client: { how: 'exited 1', lastErrorLine: 'Error: INVALID_RESULT at tools/list' },
      clientEndedEarly: 'the client exited 1 before any scenario: Error: INVALID_RESULT at tools/list',
    });
    // Its stderr still reaches the user as it was written.
    expect(run.stderr).toContain('connecting…');
  });
});
