import { describe, expect, it } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import type { JudgeOptions } from '../../src/judges/judge-options.js';
import type { Judgement } from '../../src/judges/judgement.js';
import type { SessionTranscript } from '../../src/judges/session-transcript.js';
import { answers, call, closes, HANDSHAKE_2025, http, opens, progress, request, result, says, SSE, transcript } from './session-builder.js';

const OPTIONS: JudgeOptions = { toleranceMs: 100, graceMs: 50, idleTimeoutMs: 1000 };

const V2026 = { protocolVersion: '2026-07-28' };

function judgement(session: SessionTranscript, judge: string, options: JudgeOptions = OPTIONS): Judgement {
  const found = judgeSession(session, options).judgements.find((one) => one.judge === judge);
  if (found === undefined) throw new Error(`no judge ${judge}`);
  return found;
}

describe('server-sse-headers', () => {
  const streamed = (headers: Record<string, string>) =>
    http([
      ...HANDSHAKE_2025,
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow')),
      answers(12, 'POST 2', headers),
      says(20, 'server', 'POST 2', result(1)),
      closes(20, 'POST 2'),
    ]);
  it('passes an SSE response with the three headers (values with parameters too)', () => {
    const good = judgement(
      streamed({ ...SSE, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform' }),
      'server-sse-headers',
    );
    expect(good.status).toBe('pass');
  });
  it('fails one without Cache-Control and X-Accel-Buffering, at the response line', () => {
    const bad = judgement(streamed({ 'content-type': 'text/event-stream' }), 'server-sse-headers');
    expect(bad.status).toBe('fail');
    expect(bad.summary).toBe('the SSE response of POST 2 lacks Cache-Control: no-cache, X-Accel-Buffering: no');
    expect(bad.cases[0]?.lines).toEqual([9]);
  });
  it('is inconclusive with JSON responses only, and not observable over stdio or in a trace without stream records', () => {
    expect(judgement(http(HANDSHAKE_2025), 'server-sse-headers').status).toBe('inconclusive');
    expect(judgement(transcript([[0, 'client', call(1, 'slow')]]), 'server-sse-headers').status).toBe('not-observable');
    const older = judgement(transcript([[0, 'client', call(1, 'slow')]], { transport: 'http' }), 'server-sse-headers');
    expect(older).toMatchObject({ status: 'not-observable', summary: expect.stringMatching(/does not record its HTTP streams/) });
  });
});

describe('server-messages-on-own-stream', () => {
  /** Two calls with progress, the first's messages on `where` (a stream opened for it, or the second's). */
  const twoCalls = (where: string, more: readonly object[] = [], handshake: readonly object[] = HANDSHAKE_2025, headers = {}) =>
    http([
      ...handshake,
      opens(10, 'POST 2', headers),
      says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
      answers(11, 'POST 2'),
      opens(20, 'POST 3', headers),
      says(20, 'client', 'POST 3', call(2, 'slow', {}, 12)),
      answers(21, 'POST 3'),
      ...more,
      says(100, 'server', where, progress(11, 1)),
      says(110, 'server', 'POST 3', progress(12, 1)),
      says(200, 'server', where, result(1)),
      says(210, 'server', 'POST 3', result(2)),
      closes(220, 'POST 3'),
    ]);
  it("passes every response and progress on its request's own stream", () => {
    const good = judgement(twoCalls('POST 2'), 'server-messages-on-own-stream');
    expect(good).toMatchObject({ status: 'pass', summary: expect.stringMatching(/each of 5 response\(s\) and progress/) });
  });
  it("fails a request's progress and response written into another request's stream, on either revision", () => {
    const crossed = judgement(twoCalls('POST 3'), 'server-messages-on-own-stream');
    expect(crossed.status).toBe('fail');
    expect(crossed.cases.filter((one) => one.status === 'fail').map((one) => one.message)).toEqual([
      'the response for tools/call slow (id 1) came on POST 3, not on POST 2, the stream of the request',
      'progress for tools/call slow (id 1) came on POST 3, not on POST 2, the stream of the request',
    ]);
    expect(judgement(twoCalls('POST 3', [], [], V2026), 'server-messages-on-own-stream').status).toBe('fail');
  });
  it('2025-11-25: progress on the GET stream passes; a response there only on a stream resumed with Last-Event-ID', () => {
    const onGet = (headers: { lastEventId?: string }) =>
      judgement(twoCalls('GET 4', [opens(50, 'GET 4', headers), answers(51, 'GET 4')]), 'server-messages-on-own-stream');
    const plain = onGet({});
    expect(plain.status).toBe('fail');
    expect(plain.cases.filter((one) => one.status === 'fail').map((one) => one.message)).toEqual([
      'the response for tools/call slow (id 1) came on GET 4, not on POST 2, the stream of the request',
    ]);
    expect(
      plain.cases.some((one) => one.status === 'pass' && /progress .* on the GET stream GET 4, as 2025-11-25 allows/.test(one.message)),
    ).toBe(true);
    expect(onGet({ lastEventId: 'e-3' }).status).toBe('pass');
  });
  it('2026-07-28: progress on another stream fails even on a GET (the revision has none: request-scoped messages ride their own)', () => {
    const onGet = judgement(
      twoCalls('GET 4', [opens(50, 'GET 4', V2026), answers(51, 'GET 4')], [], V2026),
      'server-messages-on-own-stream',
    );
    expect(onGet.cases.filter((one) => one.status === 'fail')).toHaveLength(2);
  });
});

describe('client-resumes-only-where-supported', () => {
  const brokenRecords = (headers: { protocolVersion?: string }, after: readonly object[], handshake: readonly object[] = []) => [
    ...handshake,
    opens(10, 'POST 2', headers),
    says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
    answers(11, 'POST 2'),
    says(100, 'server', 'POST 2', progress(11, 1)),
    closes(150, 'POST 2'),
    ...after,
  ];
  const broken = (headers: { protocolVersion?: string }, after: readonly object[], handshake: readonly object[] = []) =>
    http(brokenRecords(headers, after, handshake));
  it('2026-07-28: a request with Last-Event-ID fails at its line; sending the call again under a new id passes', () => {
    const resumed = judgement(
      broken(V2026, [opens(200, 'POST 3', { ...V2026, lastEventId: 'e-1' })]),
      'client-resumes-only-where-supported',
    );
    expect(resumed.status).toBe('fail');
    expect(resumed.summary).toMatch(/^POST 3 sent Last-Event-ID e-1, but 2026-07-28 has no resumption/);
    expect(resumed.cases[0]?.lines).toEqual([7]);
    const reissued = broken(V2026, [opens(200, 'POST 3', V2026), says(200, 'client', 'POST 3', call(2, 'slow', {}, 12))]);
    expect(judgement(reissued, 'client-resumes-only-where-supported')).toMatchObject({
      status: 'pass',
      summary: 'the client sent each of 1 lost call(s) again under a new id, never resuming',
    });
    // A break the trace ends at (within the tolerance) shows nothing of what the client does.
    expect(judgement(http(brokenRecords(V2026, []), 200), 'client-resumes-only-where-supported').status).toBe('inconclusive');
    // A break after which the client sent something else shows nothing of resuming; that it lost the call is the next judge's.
    const other = broken(V2026, [opens(200, 'POST 3', V2026), says(200, 'client', 'POST 3', request(2, 'tools/list'))]);
    expect(judgement(other, 'client-resumes-only-where-supported').status).toBe('inconclusive');
    expect(judgement(other, 'client-recovers-lost-request')).toMatchObject({
      status: 'fail',
      summary: expect.stringMatching(/^POST 2 broke before the answer to tools\/call slow \(id 1\), and the client did not send it again/),
    });
    expect(judgement(other, 'client-recovers-lost-request').cases[0]?.lines).toEqual([6, 3]);
    // Watched only until its idle timeout (sent at 10, progress at 100, 1000 ms) and the tolerance: not yet due.
    expect(judgement(http(brokenRecords(V2026, []), 1150), 'client-recovers-lost-request').status).toBe('inconclusive');
    // Sent again: recovered.
    expect(judgement(reissued, 'client-recovers-lost-request').status).toBe('pass');
  });
  it('2026-07-28 with no broken stream is inconclusive: the client had nothing to resume', () => {
    const whole = http([
      opens(10, 'POST 2', V2026),
      says(10, 'client', 'POST 2', call(1, 'slow')),
      answers(11, 'POST 2'),
      says(20, 'server', 'POST 2', result(1)),
      closes(20, 'POST 2'),
    ]);
    expect(judgement(whole, 'client-resumes-only-where-supported').status).toBe('inconclusive');
  });
  it('2025-11-25: resuming with Last-Event-ID passes; an unknown revision is inconclusive', () => {
    const resumed = broken({}, [opens(200, 'GET 3', { lastEventId: 'e-1' })], HANDSHAKE_2025);
    expect(judgement(resumed, 'client-resumes-only-where-supported').status).toBe('pass');
    expect(judgement(broken({}, [opens(200, 'GET 3', { lastEventId: 'e-1' })]), 'client-resumes-only-where-supported').status).toBe(
      'inconclusive',
    );
  });
});

describe('closing the stream is the cancellation on 2026-07-28 HTTP', () => {
  const closedAt = (closeAt: number | undefined, headers: { protocolVersion?: string } = V2026, after: readonly object[] = []) =>
    http([
      opens(0, 'POST 1', headers),
      says(0, 'client', 'POST 1', call(1, 'slow', {}, 11)),
      answers(2, 'POST 1'),
      ...(closeAt === undefined ? [] : [closes(closeAt, 'POST 1', 'client')]),
      ...after,
    ]);
  it('a client that closes the stream at its idle timeout passes; one that keeps it open fails', () => {
    const onTime = judgement(closedAt(1020), 'client-cancels-on-idle-timeout');
    expect(onTime.status).toBe('pass');
    expect(onTime.cases).toEqual([
      { status: 'pass', message: 'tools/call slow (id 1) cancelled 1020 ms after it was sent, at its idle timeout (1000 ms)', lines: [5] },
    ]);
    expect(judgement(closedAt(undefined), 'client-cancels-on-idle-timeout').status).toBe('fail');
  });
  it('what the server writes for the closed request later, into another stream, fails server-silent-after-cancel', () => {
    const held = closedAt(1020, V2026, [
      opens(1500, 'POST 2', V2026),
      says(1500, 'client', 'POST 2', call(2, 'slow')),
      answers(1501, 'POST 2'),
      says(1502, 'server', 'POST 2', result(1)),
      says(1600, 'server', 'POST 2', result(2)),
      closes(1600, 'POST 2'),
    ]);
    const silent = judgement(held, 'server-silent-after-cancel');
    expect(silent.status).toBe('fail');
    expect(silent.summary).toMatch(/its response for tools\/call slow \(id 1\) 482 ms after the client cancelled it/);
    expect(judgement(held, 'server-messages-on-own-stream').status).toBe('fail');
    expect(judgement(closedAt(1020), 'server-silent-after-cancel').status).toBe('pass');
  });
  it('a stream the server broke before the timeout loses the request (2026-07-28): nothing for the client to cancel', () => {
    const broken = closedAt(undefined, V2026, [closes(150, 'POST 1', 'server')]);
    expect(judgement(broken, 'client-cancels-on-idle-timeout').status).toBe('inconclusive');
    // Broken after the timeout was due: the client had already failed to cancel.
    expect(judgement(closedAt(undefined, V2026, [closes(2000, 'POST 1', 'server')]), 'client-cancels-on-idle-timeout').status).toBe('fail');
  });

  it('subscriptions/listen stays open by design: no timeout applies, and closing it is its end, not a cancellation', () => {
    const listen = http([
      opens(0, 'POST 1', V2026),
      says(0, 'client', 'POST 1', request(1, 'subscriptions/listen', {})),
      answers(2, 'POST 1'),
      closes(4000, 'POST 1', 'client'),
    ]);
    expect(judgement(listen, 'client-cancels-on-idle-timeout').status).toBe('inconclusive');
    expect(judgement(listen, 'server-silent-after-cancel').status).toBe('inconclusive');
  });

  it('2025-11-25: a closed stream is not a cancellation, so the timeout judge still wants notifications/cancelled', () => {
    const closedOnly = closedAt(1020, {}, []);
    const withHandshake = http([
      ...HANDSHAKE_2025,
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
      answers(12, 'POST 2'),
      closes(1020, 'POST 2', 'client'),
    ]);
    expect(judgement(withHandshake, 'client-cancels-on-idle-timeout').status).toBe('fail');
    expect(judgement(closedOnly, 'client-cancels-on-idle-timeout').status).toBe('inconclusive');
  });
});

describe('client-cancels-with-revision-signal', () => {
  const timedOut = (headers: { protocolVersion?: string }, then: readonly object[], handshake: readonly object[] = []) =>
    http([
      ...handshake,
      opens(10, 'POST 2', headers),
      says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
      answers(11, 'POST 2'),
      ...then,
    ]);
  const postsCancel = (at: number, stream: string, headers: { protocolVersion?: string }) => [
    opens(at, stream, headers),
    says(at, 'client', stream, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    answers(at + 1, stream, {}, 202),
    closes(at + 1, stream),
  ];
  it('2026-07-28: a POSTed notifications/cancelled that leaves the stream open fails, and does not cancel the request', () => {
    const session = timedOut(V2026, postsCancel(1010, 'POST 3', V2026));
    const signal = judgement(session, 'client-cancels-with-revision-signal');
    expect(signal.status).toBe('fail');
    expect(signal.summary).toMatch(/^cancelled tools\/call slow \(id 1\) with a POSTed notifications\/cancelled, which 2026-07-28 neither/);
    expect(signal.cases[0]?.lines).toEqual([6, 3]);
    // The request was never cancelled on the wire: the timeout judge fails it too.
    expect(judgement(session, 'client-cancels-on-idle-timeout').status).toBe('fail');
    // Closing the stream (with or without the notification) is the signal.
    expect(judgement(timedOut(V2026, [closes(1010, 'POST 2', 'client')]), 'client-cancels-with-revision-signal')).toMatchObject({
      status: 'pass',
      summary: 'each of 1 cancellation(s) used the signal of 2026-07-28',
    });
    const both = timedOut(V2026, [...postsCancel(1010, 'POST 3', V2026), closes(1012, 'POST 2', 'client')]);
    expect(judgement(both, 'client-cancels-with-revision-signal').status).toBe('pass');
    expect(judgement(both, 'client-cancels-on-idle-timeout').status).toBe('pass');
  });
  it('2025-11-25: closing the stream without notifications/cancelled fails (a disconnect); the notification passes', () => {
    const closedOnly = timedOut({}, [closes(1010, 'POST 2', 'client')], HANDSHAKE_2025);
    const signal = judgement(closedOnly, 'client-cancels-with-revision-signal');
    expect(signal.status).toBe('fail');
    expect(signal.summary).toMatch(/without notifications\/cancelled: on 2025-11-25 a disconnect is not a cancellation/);
    const notified = timedOut({}, postsCancel(1010, 'POST 3', {}), HANDSHAKE_2025);
    expect(judgement(notified, 'client-cancels-with-revision-signal').status).toBe('pass');
    // A disconnect the client then resumed, and got the answer on, was no attempt to cancel.
    const resumedAfter = timedOut(
      {},
      [closes(300, 'POST 2', 'client'), opens(400, 'GET 3', { lastEventId: 'e' }), answers(401, 'GET 3')],
      HANDSHAKE_2025,
    );
    expect(judgement(resumedAfter, 'client-cancels-with-revision-signal').cases).toEqual([]);
  });
  it('2025-11-25: a close that only ends the session, away from the timeout, is a teardown: judged once, by the timeout judge', () => {
    const teardown = timedOut({}, [closes(4000, 'POST 2', 'client'), opens(4001, 'DELETE 3')], HANDSHAKE_2025);
    expect(judgement(teardown, 'client-cancels-with-revision-signal').cases).toEqual([]);
    const idle = judgement(teardown, 'client-cancels-on-idle-timeout');
    expect(idle.status).toBe('fail');
    expect(idle.summary).toBe(
      'tools/call slow (id 1) passed its idle timeout (1000 ms) without a cancellation; ' +
        'the client closed its stream 3990 ms after it was sent, as it ended the session',
    );
    // The same close with the session going on after it (another call) is a disconnect meant as a cancellation.
    const goesOn = timedOut(
      {},
      [closes(4000, 'POST 2', 'client'), opens(4100, 'POST 3'), says(4100, 'client', 'POST 3', call(2, 'slow'))],
      HANDSHAKE_2025,
    );
    expect(judgement(goesOn, 'client-cancels-with-revision-signal').status).toBe('fail');
  });
  it('2025-11-25: a stream the server ended, then nothing from the client: the timeout failure says so', () => {
    const dropped = timedOut({}, [closes(300, 'POST 2')], HANDSHAKE_2025);
    expect(judgement(dropped, 'client-cancels-on-idle-timeout').summary).toBe(
      'tools/call slow (id 1) passed its idle timeout (1000 ms) without a cancellation; the server ended its stream 290 ms after it ' +
        'was sent, without the answer, and the client then sent nothing for it to the server: no resumption, no new request, no cancellation',
    );
  });
  it('2026-07-28: a notification for a call the server had already dropped is not judged (nothing was left to cancel)', () => {
    const dropped = timedOut(V2026, [closes(300, 'POST 2'), ...postsCancel(1010, 'POST 3', V2026)]);
    expect(judgement(dropped, 'client-cancels-with-revision-signal').cases).toEqual([]);
  });
  it('stdio has one signal: not observable; no cancellation at all: inconclusive', () => {
    const stdio = transcript([
      [0, 'client', call(1, 'slow')],
      [1000, 'client', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }],
    ]);
    expect(judgement(stdio, 'client-cancels-with-revision-signal').status).toBe('not-observable');
    expect(judgement(timedOut(V2026, []), 'client-cancels-with-revision-signal').status).toBe('inconclusive');
  });
});

describe('client-resumes-only-pending', () => {
  /** A 2025-11-25 call whose stream (events with ids) the server dropped, then what the client did. */
  const dropped = (then: readonly object[]) =>
    http([
      ...HANDSHAKE_2025,
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
      answers(11, 'POST 2'),
      { at: 100, from: 'server', stream: 'POST 2', event: '7', message: progress(11, 1) },
      closes(150, 'POST 2'),
      ...then,
    ]);
  const cancels = (at: number) => [
    opens(at, 'POST 3'),
    says(at, 'client', 'POST 3', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    answers(at + 1, 'POST 3', {}, 202),
    closes(at + 1, 'POST 3'),
  ];
  it('resuming the stream of a call the client cancelled fails, each time, at the GET', () => {
    const session = dropped([...cancels(600), opens(1150, 'GET 4', { lastEventId: '7' }), opens(2900, 'GET 5', { lastEventId: '7' })]);
    const resumed = judgement(session, 'client-resumes-only-pending');
    expect(resumed.status).toBe('fail');
    expect(resumed.cases.map((one) => one.message)).toEqual([
      'GET 4 resumed the stream of tools/call slow (id 1) 550 ms after the client cancelled it',
      'GET 5 resumed the stream of tools/call slow (id 1) 2300 ms after the client cancelled it (resumption 2)',
    ]);
    expect(resumed.cases[0]?.lines).toEqual([16, 13]);
  });
  it('resuming after the answer fails; resuming a pending call passes; a trace without event ids shows nothing', () => {
    const answered = dropped([
      opens(300, 'GET 3', { lastEventId: '7' }),
      answers(301, 'GET 3'),
      { at: 400, from: 'server', stream: 'GET 3', event: '8', message: result(1) },
      closes(401, 'GET 3'),
      opens(1400, 'GET 4', { lastEventId: '8' }),
    ]);
    const judged = judgement(answered, 'client-resumes-only-pending');
    expect(judged.status).toBe('fail');
    expect(judged.cases.map((one) => one.status)).toEqual(['pass', 'fail']);
    expect(judged.cases[1]?.message).toBe(
      'GET 4 resumed the stream of tools/call slow (id 1) 1000 ms after its answer arrived (resumption 2)',
    );
    expect(judgement(dropped([opens(300, 'GET 3', { lastEventId: '7' })]), 'client-resumes-only-pending').status).toBe('pass');
    expect(judgement(dropped([opens(300, 'GET 3', { lastEventId: 'unknown' })]), 'client-resumes-only-pending').status).toBe(
      'inconclusive',
    );
  });
});

describe('server-streams-progress', () => {
  const run = (progressAt: readonly number[], answerAt: number) =>
    transcript([
      [0, 'client', call(1, 'slow', {}, 11)],
      ...progressAt.map((at, index) => [at, 'server', progress(11, index + 1)] as const),
      [answerAt, 'server', result(1)],
    ]);
  it('progress that arrives only with the answer of a long request fails, naming the likely cause', () => {
    const held = judgement(run([5000, 5000, 5001], 5001), 'server-streams-progress');
    expect(held.status).toBe('fail');
    expect(held.summary).toMatch(
      /^all 3 progress notification\(s\) for tools\/call slow \(id 1\) arrived within 1 ms of its answer, after it had run 5001 ms: held back/,
    );
    expect(held.cases[0]?.lines).toEqual([3, 6]);
  });
  it('progress as the work runs passes; a short request, or one without progress, shows nothing', () => {
    expect(judgement(run([1000, 2000, 3000], 5000), 'server-streams-progress').status).toBe('pass');
    expect(judgement(run([400, 450], 500), 'server-streams-progress').status).toBe('inconclusive');
    expect(judgement(run([], 5000), 'server-streams-progress').status).toBe('inconclusive');
  });
});

describe('client-recovers-lost-request on a revision with resumption', () => {
  const lost = (then: readonly object[], endedAt = 5000) =>
    http(
      [
        ...HANDSHAKE_2025,
        opens(10, 'POST 2'),
        says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
        answers(11, 'POST 2'),
        says(100, 'server', 'POST 2', progress(11, 1)),
        closes(150, 'POST 2'),
        ...then,
      ],
      endedAt,
    );
  it('a broken stream neither resumed, sent again nor cancelled fails: the server works on for nobody', () => {
    const dropped = judgement(lost([]), 'client-recovers-lost-request');
    expect(dropped.status).toBe('fail');
    expect(dropped.summary).toMatch(/^POST 2 broke before the answer to tools\/call slow \(id 1\), and the client neither resumed it/);
    expect(dropped.cases[0]?.lines).toEqual([11, 8]);
    // Cancelled after the break (what a client that gives up does), or watched for less than the tolerance: no failure.
    const cancels = [
      opens(600, 'POST 3'),
      says(600, 'client', 'POST 3', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    ];
    expect(judgement(lost(cancels), 'client-recovers-lost-request')).toMatchObject({
      status: 'pass',
      summary: 'each of 1 request(s) lost with a broken stream was recovered',
    });
    expect(judgement(lost([], 200), 'client-recovers-lost-request').status).toBe('inconclusive');
    // The client ended its session (DELETE): nothing left to recover.
    expect(judgement(lost([opens(300, 'DELETE 3')]), 'client-recovers-lost-request').status).toBe('inconclusive');
    // A resumption of another call's stream (its event on another stream) does not resume this one.
    const elsewhere = lost([
      opens(160, 'POST 3'),
      says(160, 'client', 'POST 3', call(2, 'other', {}, 12)),
      answers(161, 'POST 3'),
      { at: 170, from: 'server', stream: 'POST 3', event: 'x', message: progress(12, 1) },
      opens(400, 'GET 4', { lastEventId: 'x' }),
    ]);
    expect(judgement(elsewhere, 'client-resumes-only-where-supported').status).toBe('pass');
    expect(judgement(elsewhere, 'client-recovers-lost-request').cases.map((one) => one.status)).toEqual(['fail']);
    // Resuming this stream recovers it.
    const resumed = lost([opens(400, 'GET 3', { lastEventId: 'mine' })]);
    expect(judgement(resumed, 'client-recovers-lost-request').status).toBe('pass');
  });
});
