import { describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import type { JudgeOptions } from '../../src/judges/judge-options.js';
import { manifestClaims, manifestPlacer, sessionDrift } from '../../src/judges/session-drift.js';
import { sessionFindings } from '../../src/judges/session-rules.js';
import type { SessionTranscript } from '../../src/judges/session-transcript.js';
import { type LoadedManifest, loadManifest } from '../../src/manifest/load.js';
import { call, cancel, progress, result, transcript } from './session-builder.js';

/** Two operations: a long report with timeouts, a progress rate and silence after cancellation; a keyed charge. */
const MANIFEST = `mcprely: 1
specVersion: "2025-11-25"
server:
  name: reports
  transports: [stdio]
defaults:
  cancellation:
    stopsWork: immediately
operations:
  - name: slow_report
    method: tools/call
    sideEffect: none
    timeouts: { idleMs: 1000, maxMs: 3000 }
    progress:
      emits: true
      minIntervalMs: 100
      maxIntervalMs: 500
    cancellation:
      suppressResponseAfterCancel: true
  - name: charge
    method: tools/call
    sideEffect: mutation
    idempotency: { keyArgument: requestKey }
`;

function manifest(text = MANIFEST): LoadedManifest {
  const loaded = loadManifest('m.yaml', new TextEncoder().encode(text));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  return loaded;
}

const OPTIONS: JudgeOptions = { toleranceMs: 50, graceMs: 50 };

function drift(session: SessionTranscript, loaded = manifest()) {
  const options = { ...OPTIONS, claimsFor: manifestClaims(loaded) };
  const verdict = judgeSession(session, options);
  return { verdict, ...sessionDrift(loaded, verdict.session, options, 'trace.jsonl') };
}
const claim = (result: ReturnType<typeof drift>, field: string, operation = 'slow_report') =>
  result.claims.find((one) => one.operation === operation && one.field === field);

/** slow_report with progress every `everyMs` ms from 100 ms, answered at `answerAt`. */
function report(everyMs: number, answerAt: number, extra: readonly (readonly [number, 'client' | 'server', unknown])[] = []) {
  const ticks: [number, 'server', unknown][] = [];
  for (let at = 100, value = 1; at < answerAt; at += everyMs, value++) ticks.push([at, 'server', progress(7, value)]);
  return transcript([[0, 'client', call(1, 'slow_report', {}, 7)], ...ticks, [answerAt, 'server', result(1)], ...extra], {
    endedAt: answerAt + 1000,
  });
}

describe('the manifest as what a session is judged against', () => {
  it("each request is judged against its operation's timeouts: slow_report's 1 000 ms idle timeout, not a global one", () => {
    const silent = transcript(
      [
        [0, 'client', call(1, 'slow_report')],
        [2000, 'server', result(1)],
      ],
      { endedAt: 3000 },
    );
    const { verdict } = drift(silent);
    const idle = verdict.judgements.find((one) => one.judge === 'client-cancels-on-idle-timeout');
    expect(idle?.status).toBe('fail');
    expect(idle?.summary).toMatch(/tools\/call slow_report \(id 1\) passed its idle timeout \(1000 ms\) without a cancellation/);
    // An operation without timeouts, and no --idle-timeout: nothing to judge it against.
    const charge = transcript(
      [
        [0, 'client', call(1, 'charge', { requestKey: 'a' })],
        [2000, 'server', result(1)],
      ],
      { endedAt: 3000 },
    );
    expect(drift(charge).verdict.judgements.find((one) => one.judge === 'client-cancels-on-idle-timeout')?.summary).toMatch(
      /no request outlived its idle timeout \(its operation's in the manifest\)/,
    );
  });

  it("a failure about a request of an operation is reported at that operation's claim, naming the trace line; others stay in the trace", () => {
    const session = transcript(
      [
        [0, 'client', call(1, 'slow_report')],
        [0, 'client', call(2, 'undescribed_tool')],
        [2000, 'server', result(1)],
        [2000, 'server', result(2)],
      ],
      { endedAt: 3000 },
    );
    const loaded = manifest();
    const { verdict } = drift(session, loaded);
    const findings = sessionFindings(verdict, 'trace.jsonl', manifestPlacer(loaded, verdict.session));
    const idle = findings.filter((one) => one.ruleId === 'client-cancels-on-idle-timeout');
    expect(idle).toHaveLength(1);
    expect(idle[0]).toMatchObject({
      file: 'm.yaml',
      path: '/operations/0/timeouts/idleMs',
      range: { start: { line: 13, column: 25 } },
      message: expect.stringMatching(/^tools\/call slow_report \(id 1\) passed its idle timeout \(1000 ms\) .*\(trace\.jsonl, line 2\)$/),
    });
    // Without --idle-timeout the undescribed tool has no timeout to fail; with one, its failure stays at its trace line.
    const withFlag = judgeSession(session, { ...OPTIONS, idleTimeoutMs: 500, claimsFor: manifestClaims(loaded) });
    const placed = sessionFindings(withFlag, 'trace.jsonl', manifestPlacer(loaded, withFlag.session));
    expect(placed.filter((one) => one.ruleId === 'client-cancels-on-idle-timeout').map((one) => [one.file, one.range?.start.line])).toEqual(
      [
        ['m.yaml', 13],
        ['trace.jsonl', 3],
      ],
    );
  });

  it('a timeout given by a flag is no claim of the manifest: the finding points at the operation; a batch of two operations keeps its trace line', () => {
    const loaded = manifest();
    const judgeWith = (session: SessionTranscript) => {
      const verdict = judgeSession(session, { ...OPTIONS, idleTimeoutMs: 500, claimsFor: manifestClaims(loaded) });
      return sessionFindings(verdict, 'trace.jsonl', manifestPlacer(loaded, verdict.session)).filter(
        (one) => one.ruleId === 'client-cancels-on-idle-timeout',
      );
    };
    const charge = judgeWith(
      transcript(
        [
          [0, 'client', call(1, 'charge', { requestKey: 'k' })],
          [2000, 'server', result(1)],
        ],
        { endedAt: 3000 },
      ),
    );
    expect(charge.map((one) => [one.file, one.path, one.range?.start.line])).toEqual([['m.yaml', '/operations/1/name', 20]]);
    // One batch (one trace line) calling both operations, answered in one batch: whose line is it? Neither's alone.
    const batched: SessionTranscript = {
      transport: 'stdio',
      messages: [
        { line: 2, at: 0, from: 'client', message: call(1, 'charge', { requestKey: 'k' }) },
        { line: 2, at: 0, from: 'client', message: call(2, 'slow_report') },
        { line: 3, at: 2000, from: 'server', message: result(1) },
        { line: 3, at: 2000, from: 'server', message: result(2) },
      ],
      endedAt: 3000,
    };
    const batch = judgeWith(batched);
    expect(batch.map((one) => one.file)).toEqual(['trace.jsonl', 'trace.jsonl']);
  });

  it("the retry judge reads the operation's key argument (requestKey, a name it would not guess)", () => {
    const retried = transcript(
      [
        [0, 'client', call(1, 'charge', { amount: 5, requestKey: 'k-1' })],
        [500, 'client', cancel(1)],
        [600, 'client', call(2, 'charge', { amount: 5, requestKey: 'k-2' })],
        [700, 'server', result(2)],
      ],
      { endedAt: 2000 },
    );
    const judgement = drift(retried).verdict.judgements.find((one) => one.judge === 'client-retry-keeps-key');
    expect(judgement?.status).toBe('fail');
    expect(judgement?.summary).toMatch(/requestKey/);
  });
});

describe('session drift: the claims of the manifest against real traffic', () => {
  it('progress at the declared pace: minIntervalMs and maxIntervalMs seen, no finding', () => {
    const paced = drift(report(200, 1000));
    expect(claim(paced, 'progress.minIntervalMs')).toMatchObject({ status: 'seen', why: expect.stringMatching(/every 200 ms on average/) });
    expect(claim(paced, 'progress.maxIntervalMs')).toMatchObject({ status: 'seen' });
    expect(paced.findings).toEqual([]);
  });

  it('progress faster than minIntervalMs is drift-progress at the manifest line of the claim', () => {
    const fast = drift(report(20, 1000));
    expect(claim(fast, 'progress.minIntervalMs')?.status).toBe('contradicted');
    const finding = fast.findings.find((one) => one.path === '/operations/0/progress/minIntervalMs');
    expect(finding).toMatchObject({ ruleId: 'drift-progress', file: 'm.yaml', range: { start: { line: 16, column: 22 } } });
    expect(finding?.message).toMatch(/^slow_report: progress\.minIntervalMs is 100, but in trace\.jsonl 45 progress notifications /);
    expect(finding?.message).toMatch(/came every 20 ms on average \(shortest gap 20 ms\), faster than one per 100 ms$/);
  });

  it('a gap longer than maxIntervalMs is drift-progress; a request shorter than the interval says nothing', () => {
    const gap = drift(report(900, 2000));
    expect(claim(gap, 'progress.maxIntervalMs')).toMatchObject({
      status: 'contradicted',
      why: expect.stringMatching(/went 900 ms without progress/),
    });
    expect(gap.findings.map((one) => one.path)).toContain('/operations/0/progress/maxIntervalMs');
    const short = drift(
      transcript(
        [
          [0, 'client', call(1, 'slow_report', {}, 7)],
          [300, 'server', result(1)],
        ],
        { endedAt: 1000 },
      ),
    );
    expect(claim(short, 'progress.maxIntervalMs')?.status).toBe('inconclusive');
  });

  it('silence after a cancellation: suppressResponseAfterCancel seen, stopsWork (from defaults) only contradicted, never seen', () => {
    const cancelled = (after: readonly (readonly [number, 'client' | 'server', unknown])[]) =>
      transcript([[0, 'client', call(1, 'slow_report', {}, 7)], [150, 'server', progress(7, 1)], [300, 'client', cancel(1)], ...after], {
        endedAt: 2000,
      });
    const quiet = drift(cancelled([]));
    expect(claim(quiet, 'cancellation.suppressResponseAfterCancel')?.status).toBe('seen');
    // Silence does not show the work stopped (a server may drop what it would have sent): never "seen" from it.
    expect(claim(quiet, 'cancellation.stopsWork')).toMatchObject({
      status: 'inconclusive',
      why: expect.stringMatching(/silence does not show the work stopped/),
    });
    const loud = drift(
      cancelled([
        [600, 'server', progress(7, 2)],
        [900, 'server', result(1)],
      ]),
    );
    expect(claim(loud, 'cancellation.suppressResponseAfterCancel')).toMatchObject({
      status: 'contradicted',
      why: expect.stringMatching(/its response .* 600 ms after its cancellation/),
    });
    expect(claim(loud, 'cancellation.stopsWork')).toMatchObject({
      status: 'contradicted',
      why: expect.stringMatching(/progress .* 300 ms after/),
    });
    // stopsWork is written in defaults: the finding points there, under the operation's path.
    const stops = loud.findings.find((one) => one.path === '/operations/0/cancellation/stopsWork');
    expect(stops).toMatchObject({ ruleId: 'drift-cancellation', range: { start: { line: 8 } } });
  });

  it('calls longer than timeouts.maxMs (answered late, or still running when cancelled at the maximum) are drift-duration', () => {
    const call = (end: readonly [number, 'client' | 'server', unknown]) =>
      drift(transcript([[0, 'client', call1()], end], { endedAt: 5000 }));
    const call1 = () => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_report', arguments: {} } });
    expect(claim(call([1000, 'server', result(1)]), 'timeouts.maxMs')).toMatchObject({
      status: 'seen',
      why: expect.stringMatching(/answered in 1000 ms/),
    });
    const late = call([3500, 'server', result(1)]);
    expect(claim(late, 'timeouts.maxMs')).toMatchObject({ status: 'contradicted', why: expect.stringMatching(/answered after 3500 ms/) });
    expect(late.findings.find((one) => one.ruleId === 'drift-duration')).toMatchObject({
      severity: 'warn',
      path: '/operations/0/timeouts/maxMs',
      range: { start: { line: 13, column: 38 } },
    });
    expect(claim(call([3000, 'client', cancel(1)]), 'timeouts.maxMs')).toMatchObject({
      status: 'contradicted',
      why: expect.stringMatching(/still running at 3000 ms, when its client cancelled it/),
    });
    // Cancelled long before the maximum: nothing shown about how long the work takes.
    expect(claim(call([500, 'client', cancel(1)]), 'timeouts.maxMs')?.status).toBe('inconclusive');
  });

  it('progress.emits: false contradicted by progress; claims of operations the session never called are inconclusive', () => {
    const text = MANIFEST.replace('      emits: true', '      emits: false');
    const chatty = drift(report(200, 1000), manifest(text));
    expect(claim(chatty, 'progress.emits')).toMatchObject({ status: 'contradicted', why: expect.stringMatching(/sent progress/) });
    expect(claim(drift(report(200, 1000)), 'cancellation.stopsWork', 'charge')).toMatchObject({
      status: 'inconclusive',
      why: 'the session has no request of this operation',
    });
  });
});
