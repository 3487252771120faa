import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixtures/fixture-types.js';
import { claimName, exercised, wireClaims } from '../../src/live/wire-claims.js';
import { loadManifest } from '../../src/manifest/load.js';
import { liveFixtureResults } from '../../src/probe/live-fixtures.js';
import { probePlan } from '../../src/probe/probe-plan.js';
import type { CheckResult, ProbeReport } from '../../src/probe/probe-types.js';
import { renderProbeJunit } from '../../src/probe/probe-junit.js';
import { probeExitCode, probeSummary, renderProbeText } from '../../src/probe/render-probe.js';
import { SDK_BEHAVIOURS } from '../../src/probe/sdk-behaviours.js';
import { putsCallInFlight } from '../../src/probe/probe-check-catalog.js';
import { runCli } from '../helpers/run-cli.js';

/** A report of the checks given (each with the fields the judges read), as a live run would leave it. */
function reportOf(checks: Partial<CheckResult>[], plan = { tool: 'slow_job', why: 'named', mutation: null as string | null }): ProbeReport {
  return {
    version: 3,
    target: 'node server.mjs',
    transport: 'stdio',
    revision: '2025-11-25',
    startedOk: true,
    plan,
    observations: [],
    checks: checks.map((entry) => ({
      id: 'progress',
      title: 't',
      basis: 'b',
      status: 'pass',
      summary: 's',
      details: [],
      transcript: [],
      durationMs: 0,
      ...entry,
    })) as CheckResult[],
  };
}

const fixture = (kind: Fixture['kind']): Fixture =>
  ({ id: `slow_job/${kind}`, kind, operation: 'slow_job', transport: 'stdio', specVersion: '2025-11-25' }) as Fixture;

describe('live fixtures: a check that passed plays a fixture only if it exercised the fixture’s scenario', () => {
  it('progress-resets-idle-maximum-fires passes only when the maximum fired after progress', () => {
    const cases: [Record<string, string | number | boolean>, string, RegExp][] = [
      [{ fired: 'maximum', progress: 3 }, 'pass', /./],
      [
        { fired: 'none', progress: 3 },
        'inconclusive',
        /^the check passed, but not this scenario: the maximum timeout did not fire \(no timeout fired\)$/,
      ],
      [{ fired: 'idle', progress: 0 }, 'inconclusive', /the idle timeout fired first/],
      [{ fired: 'maximum', progress: 0 }, 'inconclusive', /no progress reset the idle clock/],
    ];
    for (const [observed, status, summary] of cases) {
      const [result] = liveFixtureResults(
        [fixture('progress-resets-idle-maximum-fires')],
        reportOf([{ id: 'client-timeouts', status: 'pass', observed }]),
      );
      expect(result?.status, JSON.stringify(observed)).toBe(status);
      expect(result?.summary).toMatch(summary);
    }
  });

  it('fixtures the wire cannot show are not observable; those the probe must not play are inconclusive', () => {
    const results = liveFixtureResults([fixture('close-reopen-replay'), fixture('lost-response-automatic-retry')], reportOf([]));
    expect(results.map((result) => result.status)).toEqual(['not-observable', 'inconclusive']);
  });
});

describe('the outcome of a live run: exit codes, summaries and JUnit tell the four apart', () => {
  it('0 passed, 1 failed, 3 inconclusive (nothing in flight judged), with every status counted', () => {
    const passed = reportOf([{ status: 'pass' }, { id: 'sse-headers', status: 'not-observable' }]);
    expect(probeExitCode(passed)).toBe(0);
    expect(probeSummary(passed)).toBe('1 passed, 0 failed, 0 inconclusive, 1 not observable');
    const failed = reportOf([{ status: 'fail', fix: 'send each progress value greater than the last' }]);
    expect(probeExitCode(failed)).toBe(1);
    expect(renderProbeText(failed)).toMatch(/^ {6}Fix: send each progress value greater than the last$/m);
    const nothing = {
      ...reportOf([{ status: 'inconclusive', summary: 'x answered at once' }]),
      inconclusive: 'no request in flight was judged: x',
    };
    expect(probeExitCode(nothing)).toBe(3);
    expect(probeSummary(nothing)).toMatch(/; inconclusive, not a pass: no request in flight was judged: x$/);
    // JUnit: a failure only for a failed check; the others skipped with their outcome.
    expect(renderProbeJunit(passed)).toMatch(/failures="0" errors="0" skipped="1"/);
    expect(renderProbeJunit(failed)).toMatch(/failures="1"/);
  });
});

describe('claims on the wire: silence is not a stop', () => {
  const manifest = (() => {
    const text = readFileSync('test/probe/servers/sdk/sdk-servers.yaml', 'utf8');
    const loaded = loadManifest('sdk-servers.yaml', new TextEncoder().encode(text));
    if (!loaded.ok) throw new Error('the manifest does not load');
    return loaded;
  })();
  const claim = (checks: Partial<CheckResult>[], field: string) =>
    wireClaims(manifest, reportOf(checks), []).find((entry) => entry.operation === 'slow_job' && entry.field === field);

  it('stopsWork is seen only through the status tool; a quiet wire leaves it not observable', () => {
    const quiet = [{ id: 'cancel-before-completion', status: 'pass' as const, observed: { progressBeforeCancel: 3, watchedMs: 900 } }];
    expect(claim(quiet, 'cancellation.stopsWork')?.status).toBe('not-observable');
    expect(claim(quiet, 'cancellation.suppressResponseAfterCancel')?.status).toBe('seen');
    const stopped = [{ id: 'cancel-before-completion', status: 'pass' as const, observed: { workRunning: 0 } }];
    expect(claim(stopped, 'cancellation.stopsWork')?.status).toBe('seen');
    const running = [{ id: 'cancel-before-completion', status: 'fail' as const, observed: { workRunning: 1 } }];
    expect(claim(running, 'cancellation.stopsWork')?.status).toBe('contradicted');
    // A closed stream shows nothing at all.
    const closed = [{ id: 'cancel-before-completion', status: 'not-observable' as const, observed: {} }];
    expect(claim(closed, 'cancellation.suppressResponseAfterCancel')?.status).toBe('not-observable');
  });

  it('an answer to the cancellation contradicts suppressResponseAfterCancel, and only that claim', () => {
    const answered = [
      { id: 'cancel-before-completion', status: 'fail' as const, observed: { answeredCancellation: true, workRunning: 0 } },
    ];
    expect(claim(answered, 'cancellation.suppressResponseAfterCancel')?.status).toBe('contradicted');
    expect(claim(answered, 'cancellation.stopsWork')?.status).toBe('seen');
  });

  it('a run in which no request check passed or failed exercised nothing', () => {
    const claims = wireClaims(
      manifest,
      reportOf([
        { id: 'revision', status: 'pass' },
        { id: 'cancel-before-completion', status: 'inconclusive' },
      ]),
      [],
    );
    expect(exercised(claims, putsCallInFlight)).toBe(false);
    expect(claims.map(claimName)).toContain('slow_job: cancellation.stopsWork');
  });

  it('a claim seen by a check that puts a call in flight exercised the run; one seen by the revision check alone did not', () => {
    const claims = wireClaims(
      manifest,
      reportOf([
        { id: 'revision', status: 'pass' },
        { id: 'cancel-before-completion', status: 'pass' },
      ]),
      [],
    );
    const seen = claims.filter((one) => one.status === 'seen');
    expect(seen.map((one) => one.check)).toContain('cancel-before-completion');
    expect(exercised(claims, putsCallInFlight)).toBe(true);
    // The same claims, had no check put a call in flight: nothing was exercised.
    expect(exercised(claims, () => false)).toBe(false);
  });
});

describe('known SDK behaviours named in failures each have their row, with evidence, in docs/sdk-behaviours.md', () => {
  it.each(SDK_BEHAVIOURS.map((row) => row.id))('%s', (id) => {
    expect(readFileSync('docs/sdk-behaviours.md', 'utf8')).toMatch(new RegExp(`^\\| \`${id}\` \\|`, 'm'));
  });
});

describe('one option set on every live command', () => {
  it.each([['probe'], ['drift'], ['verify'], ['evidence']])(
    '%s takes --operation, --arguments, --grace, --max-time and both timeouts',
    (command) => {
      const help = runCli([command, '--help']).stdout;
      for (const option of [
        '--operation <name>',
        '--arguments <json>',
        '--grace <ms>',
        '--max-time <ms>',
        '--idle-timeout <ms>',
        '--max-timeout <ms>',
        '--allow-mutations',
      ])
        expect(help, option).toContain(option);
    },
  );
});

describe('the status tool is called only when it is listed and read-only', () => {
  const text = readFileSync('test/probe/servers/sdk/sdk-servers.yaml', 'utf8');
  const load = (edited: string) => {
    const loaded = loadManifest('sdk-servers.yaml', new TextEncoder().encode(edited));
    if (!loaded.ok) throw new Error('the manifest does not load');
    return loaded;
  };
  const slowJob = { name: 'slow_job', annotations: { readOnlyHint: true } };
  const plan = (manifestText: string, tools: { name: string; annotations?: { readOnlyHint?: boolean } }[]) =>
    probePlan({ manifest: load(manifestText), allowMutations: false, graceMs: 300, maxTimeMs: 60_000 }, tools);
  it('listed and read-only by the manifest: asked', () => {
    const planned = plan(text, [slowJob, { name: 'job_status' }]);
    expect(planned.ok && planned.plan.workStatus?.tool).toBe('job_status');
  });
  it('not listed, or one that may change state: not called, and the plan says why', () => {
    const missing = plan(text, [slowJob]);
    expect(missing.ok && missing.plan.workStatus).toBeUndefined();
    expect(missing.ok && missing.notes.join('\n')).toMatch(
      /does not call the status tool job_status \(probe.workStatus\): the server lists no tool of that name/,
    );
    const mutating = plan(
      text.replace(
        '  - name: job_status\n    method: tools/call\n    sideEffect: none',
        '  - name: job_status\n    method: tools/call\n    sideEffect: mutation',
      ),
      [slowJob, { name: 'job_status' }],
    );
    expect(mutating.ok && mutating.plan.workStatus).toBeUndefined();
    expect(mutating.ok && mutating.notes.join('\n')).toMatch(/it may change state \(the manifest declares sideEffect: mutation\)/);
  });
});
