import { describe, expect, it } from 'vitest';
import { JUDGES, judgeSession } from '../../src/judges/judge-session.js';
import type { JudgeOptions } from '../../src/judges/judge-options.js';
import type { Judgement } from '../../src/judges/judgement.js';
import { SESSION_RULES, sessionFindings } from '../../src/judges/session-rules.js';
import type { SessionTranscript } from '../../src/judges/session-transcript.js';
import { call, cancel, progress, request, result, transcript } from './session-builder.js';

const OPTIONS: JudgeOptions = { toleranceMs: 100, graceMs: 50, idleTimeoutMs: 1000, maxTimeoutMs: 3000 };

function judgement(session: SessionTranscript, judge: string, options: JudgeOptions = OPTIONS): Judgement {
  const found = judgeSession(session, options).judgements.find((one) => one.judge === judge);
  if (found === undefined) throw new Error(`no judge ${judge}`);
  return found;
}

const handshake = [
  [0, 'client', request(0, 'initialize', { protocolVersion: '2025-11-25' })],
  [5, 'server', result(0, { protocolVersion: '2025-11-25' })],
] as const;

describe('server-silent-after-cancel', () => {
  const cancelled = (after: readonly (readonly [number, 'client' | 'server', unknown])[]) =>
    transcript(
      [...handshake, [10, 'client', call(1, 'slow', {}, 7)], [100, 'server', progress(7, 1)], [200, 'client', cancel(1)], ...after],
      { endedAt: 2000 },
    );
  it('passes when nothing more comes after the cancellation (what was in flight within the grace is the race)', () => {
    expect(judgement(cancelled([]), 'server-silent-after-cancel').status).toBe('pass');
    expect(judgement(cancelled([[230, 'server', progress(7, 2)]]), 'server-silent-after-cancel').status).toBe('pass');
  });
  it('fails on a response or progress past the grace period, pointing at the late message', () => {
    const late = judgement(cancelled([[900, 'server', result(1)]]), 'server-silent-after-cancel');
    expect(late.status).toBe('fail');
    expect(late.summary).toMatch(/its response for tools\/call slow \(id 1\) 700 ms after/);
    expect(late.cases[0]?.lines).toEqual([7, 6]);
    expect(judgement(cancelled([[400, 'server', progress(7, 2)]]), 'server-silent-after-cancel').summary).toMatch(/sent progress/);
  });
  it("over stdio, what came before the server answered the client's next ping crossed the cancellation (the fence)", () => {
    // Progress 600 ms after the cancellation, far past the grace, but written before the server answered a ping sent
    // after the cancellation: the server may not have read the cancellation yet (stdio is ordered both ways).
    const fenced = (transport: 'stdio' | 'http', pingMethod = 'ping') =>
      transcript(
        [
          ...handshake,
          [10, 'client', call(1, 'slow', {}, 7)],
          [200, 'client', cancel(1)],
          [201, 'client', request(2, pingMethod)],
          [800, 'server', progress(7, 2)],
          [810, 'server', result(2)],
        ],
        { endedAt: 2000, transport },
      );
    expect(judgement(fenced('stdio'), 'server-silent-after-cancel').status).toBe('pass');
    // Over HTTP there is no order between streams, and another request may take its time: no fence, judged by time.
    expect(judgement(fenced('http'), 'server-silent-after-cancel').status).toBe('fail');
    expect(judgement(fenced('stdio', 'tools/list'), 'server-silent-after-cancel').status).toBe('fail');
    // After the fence, the grace alone: progress once the ping is answered fails.
    const afterFence = transcript(
      [
        ...handshake,
        [10, 'client', call(1, 'slow', {}, 7)],
        [200, 'client', cancel(1)],
        [201, 'client', request(2, 'ping')],
        [210, 'server', result(2)],
        [600, 'server', progress(7, 2)],
      ],
      { endedAt: 2000 },
    );
    expect(judgement(afterFence, 'server-silent-after-cancel')).toMatchObject({ status: 'fail', cases: [{ lines: [8, 5] }] });
    // A ping sent before the cancellation fences nothing.
    const pingBefore = transcript(
      [
        ...handshake,
        [10, 'client', call(1, 'slow', {}, 7)],
        [150, 'client', request(2, 'ping')],
        [200, 'client', cancel(1)],
        [800, 'server', progress(7, 2)],
        [810, 'server', result(2)],
      ],
      { endedAt: 2000 },
    );
    expect(judgement(pingBefore, 'server-silent-after-cancel').status).toBe('fail');
    // Bounded, so a server cannot hide late messages behind it: a keep-alive ping long after the cancellation fences
    // nothing, nor does a ping whose answer the server holds back past the grace and FENCE_MS.
    const keepAlive = transcript(
      [
        ...handshake,
        [10, 'client', call(1, 'slow', {}, 7)],
        [200, 'client', cancel(1)],
        [10_200, 'server', result(1)],
        [25_000, 'client', request(2, 'ping')],
        [25_010, 'server', result(2)],
      ],
      { endedAt: 30_000 },
    );
    expect(judgement(keepAlive, 'server-silent-after-cancel').status).toBe('fail');
    const heldBack = transcript(
      [
        ...handshake,
        [10, 'client', call(1, 'slow', {}, 7)],
        [200, 'client', cancel(1)],
        [201, 'client', request(2, 'ping')],
        [5_000, 'server', progress(7, 2)],
        [10_000, 'server', result(2)],
      ],
      { endedAt: 12_000 },
    );
    expect(judgement(heldBack, 'server-silent-after-cancel').status).toBe('fail');
  });
  it('is inconclusive when no request was cancelled before its answer', () => {
    const answered = transcript([...handshake, [10, 'client', call(1, 'slow')], [50, 'server', result(1)], [60, 'client', cancel(1)]], {
      endedAt: 1000,
    });
    expect(judgement(answered, 'server-silent-after-cancel').status).toBe('inconclusive');
  });
});

describe('server-progress-increases and server-progress-for-active-requests', () => {
  it('increasing values pass; a repeated or smaller value fails', () => {
    const good = transcript([
      ...handshake,
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(7, 1)],
      [30, 'server', progress(7, 1.5)],
      [40, 'server', result(1)],
    ]);
    expect(judgement(good, 'server-progress-increases').status).toBe('pass');
    const same = transcript([
      ...handshake,
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(7, 2)],
      [30, 'server', progress(7, 2)],
    ]);
    expect(judgement(same, 'server-progress-increases')).toMatchObject({ status: 'fail', cases: [{ lines: [6] }] });
    expect(judgement(transcript([...handshake]), 'server-progress-increases').status).toBe('inconclusive');
  });
  it('a token the client never sent, and progress after the final response, fail; progress while active passes', () => {
    const invented = transcript([...handshake, [10, 'client', call(1, 'slow')], [20, 'server', progress('server-made', 1)]]);
    expect(judgement(invented, 'server-progress-for-active-requests').summary).toMatch(/no request of the client carried/);
    const afterFinal = transcript([
      ...handshake,
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', result(1)],
      [30, 'server', progress(7, 1)],
    ]);
    expect(judgement(afterFinal, 'server-progress-for-active-requests').summary).toMatch(/after its final response/);
    const active = transcript([
      ...handshake,
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(7, 1)],
      [30, 'server', result(1)],
    ]);
    expect(judgement(active, 'server-progress-for-active-requests').status).toBe('pass');
  });
});

describe('server-answers-only-requests', () => {
  it('a response to no pending request (a cancellation answered, a second answer) fails', () => {
    const answeredNotification = transcript([...handshake, [10, 'client', cancel(99)], [20, 'server', result(null)]]);
    expect(judgement(answeredNotification, 'server-answers-only-requests').status).toBe('fail');
    const twice = transcript([...handshake, [10, 'client', call(1, 'a')], [20, 'server', result(1)], [30, 'server', result(1)]]);
    expect(judgement(twice, 'server-answers-only-requests')).toMatchObject({ status: 'fail', cases: [{ lines: [6] }] });
    expect(judgement(transcript([...handshake]), 'server-answers-only-requests').status).toBe('pass');
  });
});

describe('client-cancels-on-idle-timeout', () => {
  it('a cancellation at the idle timeout passes; progress resets the timer the client may reset', () => {
    const onTime = transcript([...handshake, [10, 'client', call(1, 'slow')], [1050, 'client', cancel(1)]], { endedAt: 3000 });
    expect(judgement(onTime, 'client-cancels-on-idle-timeout').status).toBe('pass');
    const reset = transcript(
      [...handshake, [10, 'client', call(1, 'slow', {}, 7)], [800, 'server', progress(7, 1)], [1790, 'client', cancel(1)]],
      { endedAt: 3000 },
    );
    expect(judgement(reset, 'client-cancels-on-idle-timeout').status).toBe('pass');
    // A client that does not reset its timer on progress cancels at the first deadline: on time too.
    const noReset = transcript(
      [...handshake, [10, 'client', call(1, 'slow', {}, 7)], [800, 'server', progress(7, 1)], [1020, 'client', cancel(1)]],
      { endedAt: 3000 },
    );
    expect(judgement(noReset, 'client-cancels-on-idle-timeout').status).toBe('pass');
    // A cancellation well before any deadline (the user's) shows nothing of the timeout.
    const early = transcript([...handshake, [10, 'client', call(1, 'slow')], [300, 'client', cancel(1)]], { endedAt: 3000 });
    expect(judgement(early, 'client-cancels-on-idle-timeout').status).toBe('inconclusive');
  });
  it('never cancelling, or cancelling past the tolerance, fails', () => {
    const never = transcript([...handshake, [10, 'client', call(1, 'slow')]], { endedAt: 3000 });
    expect(judgement(never, 'client-cancels-on-idle-timeout').summary).toMatch(
      /passed its idle timeout \(1000 ms\) without a cancellation/,
    );
    const late = transcript([...handshake, [10, 'client', call(1, 'slow')], [1500, 'client', cancel(1)]], { endedAt: 3000 });
    expect(judgement(late, 'client-cancels-on-idle-timeout').summary).toMatch(/cancelled 490 ms after its idle timeout/);
  });
  it('is inconclusive without a timeout, when every answer came in time, or when the recording stopped first', () => {
    const never = transcript([...handshake, [10, 'client', call(1, 'slow')]], { endedAt: 3000 });
    expect(judgement(never, 'client-cancels-on-idle-timeout', { toleranceMs: 100, graceMs: 50 }).summary).toMatch(/give --idle-timeout/);
    const quick = transcript([...handshake, [10, 'client', call(1, 'a')], [20, 'server', result(1)]], { endedAt: 3000 });
    expect(judgement(quick, 'client-cancels-on-idle-timeout').status).toBe('inconclusive');
    expect(
      judgement(transcript([...handshake, [10, 'client', call(1, 'slow')]], { endedAt: 500 }), 'client-cancels-on-idle-timeout').status,
    ).toBe('inconclusive');
  });
  it('over HTTP on a revision whose signal is closing the stream: not observable in a trace of messages', () => {
    const http = transcript(
      [
        [0, 'client', request(0, 'server/discover')],
        [10, 'client', call(1, 'slow')],
      ],
      { endedAt: 3000, transport: 'http' },
    );
    expect(judgement(http, 'client-cancels-on-idle-timeout').status).toBe('not-observable');
    expect(judgement({ ...http, revision: '2025-11-25' }, 'client-cancels-on-idle-timeout').status).toBe('fail');
  });
});

describe('client-enforces-maximum', () => {
  const steadyProgress = (cancelAt?: number) => {
    const entries: [number, 'client' | 'server', unknown][] = [
      ...handshake.map(([at, from, message]) => [at, from, message] as [number, 'client' | 'server', unknown]),
      [0, 'client', call(1, 'slow', {}, 7)],
      ...[500, 1000, 1500, 2000, 2500, 3500].map((at, index) => [at, 'server', progress(7, index + 1)] as [number, 'server', unknown]),
      [4000, 'server', result(1)],
    ];
    if (cancelAt !== undefined) entries.push([cancelAt, 'client', cancel(1)]);
    return transcript(
      entries.sort((a, b) => a[0] - b[0]),
      { endedAt: 5000 },
    );
  };
  it('a cancellation at the maximum passes although progress kept coming', () => {
    expect(judgement(steadyProgress(3050), 'client-enforces-maximum').status).toBe('pass');
  });
  it('no cancellation while progress extended the wait fails, and says progress extended it', () => {
    const extended = judgement(steadyProgress(), 'client-enforces-maximum');
    expect(extended.status).toBe('fail');
    expect(extended.summary).toMatch(/maximum \(3000 ms, extended by progress\) without a cancellation/);
  });
});

describe('client-request-ids-unique and client-cancels-only-pending', () => {
  it('a reused id fails; distinct ids pass; one request is inconclusive', () => {
    const reused = transcript([...handshake, [10, 'client', call(1, 'a')], [20, 'server', result(1)], [30, 'client', call(1, 'b')]]);
    expect(judgement(reused, 'client-request-ids-unique')).toMatchObject({ status: 'fail', cases: [{ lines: [6, 4] }] });
    expect(judgement(transcript([...handshake, [10, 'client', call(1, 'a')]]), 'client-request-ids-unique').status).toBe('pass');
    expect(judgement(transcript([[0, 'client', call(1, 'a')]]), 'client-request-ids-unique').status).toBe('inconclusive');
  });
  it('cancelling after the answer arrived, or an id never sent, fails; the race within the grace passes', () => {
    const afterAnswer = transcript([...handshake, [10, 'client', call(1, 'a')], [20, 'server', result(1)], [500, 'client', cancel(1)]]);
    expect(judgement(afterAnswer, 'client-cancels-only-pending').summary).toMatch(/480 ms after its answer arrived/);
    expect(judgement(transcript([...handshake, [10, 'client', cancel(42)]]), 'client-cancels-only-pending').status).toBe('fail');
    const race = transcript([...handshake, [10, 'client', call(1, 'a')], [20, 'server', result(1)], [40, 'client', cancel(1)]]);
    expect(judgement(race, 'client-cancels-only-pending').status).toBe('pass');
  });
});

describe('client-retry-keeps-key', () => {
  const retried = (firstKey: string | undefined, secondKey: string | undefined, secondId = 2) =>
    transcript([
      ...handshake,
      [10, 'client', call(1, 'charge', { amount: 5, ...(firstKey === undefined ? {} : { idempotencyKey: firstKey }) })],
      [1000, 'client', cancel(1)],
      [1100, 'client', call(secondId, 'charge', { amount: 5, ...(secondKey === undefined ? {} : { idempotencyKey: secondKey }) })],
      [1200, 'server', result(secondId)],
    ]);
  it('the same key under a new id passes', () => {
    expect(judgement(retried('k-1', 'k-1'), 'client-retry-keeps-key').status).toBe('pass');
  });
  it('a new key, no key, or the same id fails', () => {
    expect(judgement(retried('k-1', 'k-2'), 'client-retry-keeps-key').summary).toMatch(
      /with a new idempotency key \(idempotencyKey "k-1" → "k-2"\)/,
    );
    expect(judgement(retried(undefined, undefined), 'client-retry-keeps-key').summary).toMatch(/without an idempotency key/);
    expect(judgement(retried('k-1', 'k-1', 1), 'client-retry-keeps-key').summary).toMatch(/with the same request id/);
  });
  it('a tool the server lists as read-only, or a call with other arguments, is no retry', () => {
    const readOnly = retried('k-1', 'k-2');
    const listed = transcript([
      [0, 'client', request(100, 'tools/list')],
      [1, 'server', result(100, { tools: [{ name: 'charge', annotations: { readOnlyHint: true } }] })],
      ...readOnly.messages.map((one) => [one.at + 2, one.from, one.message] as const),
    ]);
    expect(judgement(listed, 'client-retry-keeps-key').status).toBe('inconclusive');
    const other = transcript([
      ...handshake,
      [10, 'client', call(1, 'charge', { amount: 5 })],
      [1000, 'client', cancel(1)],
      [1100, 'client', call(2, 'charge', { amount: 6 })],
    ]);
    expect(judgement(other, 'client-retry-keeps-key').status).toBe('inconclusive');
  });
});

describe('the judges as rules', () => {
  it('every judge is a rule with a page, and each failed case is a finding at its trace line', () => {
    const session = transcript([...handshake, [10, 'client', call(1, 'slow')]], { endedAt: 4000 });
    const verdict = judgeSession(session, OPTIONS);
    expect(verdict.judgements.map((one) => one.judge)).toEqual(SESSION_RULES.map((rule) => rule.id));
    expect(JUDGES).toHaveLength(SESSION_RULES.length);
    const findings = sessionFindings(verdict, 'session.jsonl');
    expect(findings.map((one) => [one.ruleId, one.severity, one.range?.start.line])).toEqual([
      ['client-cancels-on-idle-timeout', 'warn', 4],
      ['client-enforces-maximum', 'warn', 4],
    ]);
  });
  it('a judge passes only what it saw: a session of nothing passes no judge', () => {
    const verdict = judgeSession(transcript([]), OPTIONS);
    expect(verdict.judgements.filter((one) => one.status === 'pass').map((one) => one.judge)).toEqual([]);
  });
});
