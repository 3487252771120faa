import { describe, expect, it } from 'vitest';
import type { JudgeDeclaration, ObservedCase } from '../../src/judges/define-judge.js';
import { JUDGE_DECLARATIONS, type SessionJudgeId } from '../../src/judges/judge-catalog.js';
import type { JudgeOptions } from '../../src/judges/judge-options.js';
import { indexSession } from '../../src/judges/session-requests.js';
import { serverProgressIncreases } from '../../src/judges/rules/server-progress-increases.js';
import type { SessionTranscript } from '../../src/judges/session-transcript.js';
import {
  answers,
  call,
  cancel,
  closes,
  HANDSHAKE_2025,
  http,
  opens,
  progress,
  request,
  result,
  says,
  transcript,
} from './session-builder.js';

// Each judge's observations as message ids and data (the English is its declaration's to render): RuleTester-style
// rows of a recorded session and the cases the judge must observe in it, in order.

const OPTIONS: JudgeOptions = { toleranceMs: 100, graceMs: 50, idleTimeoutMs: 1000, maxTimeoutMs: 3000 };
const HANDSHAKE = [
  [0, 'client', request(0, 'initialize', { protocolVersion: '2025-11-25' })],
  [5, 'server', result(0, { protocolVersion: '2025-11-25' })],
] as const;
const stdio = (entries: Parameters<typeof transcript>[0], endedAt = 5000) => transcript([...HANDSHAKE, ...entries], { endedAt });
const SLOW = 'tools/call slow (id 1)';

type Expected = Pick<ObservedCase, 'status' | 'messageId' | 'data'>;
interface Row {
  readonly judge: SessionJudgeId;
  readonly name: string;
  readonly session: SessionTranscript;
  readonly options?: JudgeOptions;
  readonly cases: readonly Expected[];
}

const ROWS: readonly Row[] = [
  {
    judge: 'server-silent-after-cancel',
    name: 'a response 700 ms after the cancellation',
    session: stdio([
      [10, 'client', call(1, 'slow')],
      [200, 'client', cancel(1)],
      [900, 'server', result(1)],
    ]),
    cases: [{ status: 'fail', messageId: 'response-after-cancel', data: { request: SLOW, afterMs: 700 } }],
  },
  {
    judge: 'server-silent-after-cancel',
    name: 'nothing after the cancellation',
    session: stdio([
      [10, 'client', call(1, 'slow')],
      [200, 'client', cancel(1)],
    ]),
    cases: [{ status: 'pass', messageId: 'silent-after-cancel', data: { request: SLOW } }],
  },
  {
    judge: 'server-progress-increases',
    name: 'progress that goes down',
    session: stdio([
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(7, 2)],
      [30, 'server', progress(7, 1)],
    ]),
    cases: [{ status: 'fail', messageId: 'not-increasing', data: { request: SLOW, previous: 2, value: 1 } }],
  },
  {
    judge: 'server-progress-increases',
    name: 'progress without a number',
    session: stdio([
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(7, 1)],
      [30, 'server', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7 } }],
    ]),
    cases: [{ status: 'fail', messageId: 'no-numeric-value', data: { request: SLOW } }],
  },
  {
    judge: 'server-progress-for-active-requests',
    name: 'progress for a token no request carried, and after the answer',
    session: stdio([
      [10, 'client', call(1, 'slow', {}, 7)],
      [20, 'server', progress(99, 1)],
      [30, 'server', result(1)],
      [40, 'server', progress(7, 1)],
    ]),
    cases: [
      { status: 'fail', messageId: 'unknown-token', data: { token: '99' } },
      { status: 'fail', messageId: 'after-response', data: { request: SLOW, afterMs: 10 } },
    ],
  },
  {
    judge: 'server-answers-only-requests',
    name: 'an answer to a notification',
    session: stdio([
      [10, 'client', cancel(5)],
      [20, 'server', result(null)],
    ]),
    cases: [{ status: 'fail', messageId: 'stray-response', data: { id: 'null' } }],
  },
  {
    judge: 'server-sse-headers',
    name: 'an SSE response without Cache-Control and X-Accel-Buffering',
    session: http([
      ...HANDSHAKE_2025,
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow')),
      answers(12, 'POST 2', { 'content-type': 'text/event-stream' }),
      says(20, 'server', 'POST 2', result(1)),
      closes(20, 'POST 2'),
    ]),
    cases: [
      {
        status: 'fail',
        messageId: 'headers-missing',
        data: { stream: 'POST 2', missing: 'Cache-Control: no-cache, X-Accel-Buffering: no' },
      },
    ],
  },
  {
    judge: 'server-messages-on-own-stream',
    name: "a response on another request's stream",
    session: http([
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow')),
      answers(11, 'POST 2'),
      opens(20, 'POST 3'),
      says(20, 'client', 'POST 3', call(2, 'slow')),
      answers(21, 'POST 3'),
      says(200, 'server', 'POST 3', result(1)),
      says(210, 'server', 'POST 3', result(2)),
    ]),
    cases: [
      { status: 'fail', messageId: 'on-other-stream', data: { what: 'the response', request: SLOW, stream: 'POST 3', own: 'POST 2' } },
      { status: 'pass', messageId: 'on-own-stream', data: { what: 'the response', request: 'tools/call slow (id 2)', stream: 'POST 3' } },
    ],
  },
  {
    judge: 'server-streams-progress',
    name: 'all progress with the answer after two seconds',
    session: stdio([
      [10, 'client', call(1, 'slow', {}, 7)],
      [1990, 'server', progress(7, 1)],
      [2010, 'server', result(1)],
    ]),
    cases: [{ status: 'fail', messageId: 'held-back', data: { count: 1, request: SLOW, withinMs: 20, spanMs: 2000 } }],
  },
  {
    judge: 'client-cancels-on-idle-timeout',
    name: 'a request left past its idle timeout',
    session: stdio([[10, 'client', call(1, 'slow')]]),
    cases: [{ status: 'fail', messageId: 'not-cancelled', data: { request: SLOW, timeout: 'idle timeout (1000 ms)', aftermath: '' } }],
  },
  {
    judge: 'client-cancels-on-idle-timeout',
    name: 'a cancellation at the idle timeout',
    session: stdio([
      [10, 'client', call(1, 'slow')],
      [1020, 'client', cancel(1)],
    ]),
    cases: [
      { status: 'pass', messageId: 'cancelled-at-timeout', data: { request: SLOW, sinceSentMs: 1010, timeout: 'idle timeout (1000 ms)' } },
    ],
  },
  {
    judge: 'client-enforces-maximum',
    name: 'progress that kept a request past its maximum',
    session: stdio([
      [10, 'client', call(1, 'slow', {}, 7)],
      ...[1, 2, 3, 4, 5].map((step) => [10 + step * 700, 'server', progress(7, step)] as const),
      [3500, 'client', cancel(1)],
    ]),
    cases: [
      {
        status: 'fail',
        messageId: 'cancelled-late',
        data: { request: SLOW, lateMs: 490, timeout: 'maximum (3000 ms, extended by progress)', toleranceMs: 100 },
      },
    ],
  },
  {
    judge: 'client-request-ids-unique',
    name: 'an id used twice',
    session: stdio([
      [10, 'client', call(1, 'slow')],
      [20, 'server', result(1)],
      [30, 'client', request(1, 'tools/list')],
    ]),
    cases: [{ status: 'fail', messageId: 'id-reused', data: { request: 'tools/list (id 1)', earlierMethod: 'tools/call', earlierMs: 20 } }],
  },
  {
    judge: 'client-cancels-only-pending',
    name: 'a cancellation of an answered request',
    session: stdio([
      [10, 'client', call(1, 'slow')],
      [20, 'server', result(1)],
      [500, 'client', cancel(1)],
    ]),
    cases: [{ status: 'fail', messageId: 'after-answer', data: { request: SLOW, afterMs: 480 } }],
  },
  {
    judge: 'client-retry-keeps-key',
    name: 'a retry under a new key',
    session: stdio([
      [10, 'client', call(1, 'write', { idempotencyKey: 'a' })],
      [1010, 'client', cancel(1)],
      [1020, 'client', call(2, 'write', { idempotencyKey: 'b' })],
    ]),
    cases: [
      {
        status: 'fail',
        messageId: 'new-key',
        data: {
          retry: 'tools/call write (id 2)',
          first: 'tools/call write (id 1)',
          keyName: 'idempotencyKey',
          firstKey: '"a"',
          retryKey: '"b"',
        },
      },
    ],
  },
];

// The HTTP client judges: a 2026-07-28 session whose stream the server broke before the answer.
const V2026 = { protocolVersion: '2026-07-28' };
const broken = (after: readonly object[]) =>
  http([
    opens(10, 'POST 2', V2026),
    says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
    answers(11, 'POST 2'),
    says(100, 'server', 'POST 2', progress(11, 1)),
    closes(150, 'POST 2'),
    ...after,
  ]);
const HTTP_ROWS: readonly Row[] = [
  {
    judge: 'client-resumes-only-where-supported',
    name: 'a resumption on a revision without resumption',
    session: broken([opens(300, 'GET 3', { ...V2026, lastEventId: 'e-1' })]),
    cases: [{ status: 'fail', messageId: 'resumed-unsupported', data: { stream: 'GET 3', lastEventId: 'e-1', revision: '2026-07-28' } }],
  },
  {
    judge: 'client-recovers-lost-request',
    name: 'a lost request sent again under a new id',
    session: broken([opens(300, 'POST 3', V2026), says(300, 'client', 'POST 3', call(2, 'slow', {}, 11))]),
    cases: [{ status: 'pass', messageId: 'sent-again', data: { stream: 'POST 2', request: SLOW, againId: '2' } }],
  },
  {
    judge: 'client-recovers-lost-request',
    name: 'a lost request dropped',
    session: broken([]),
    cases: [
      { status: 'fail', messageId: 'dropped-lost', data: { stream: 'POST 2', request: SLOW, watchedMs: 4850, revision: '2026-07-28' } },
    ],
  },
  {
    judge: 'client-cancels-with-revision-signal',
    name: 'a notification where closing the stream is the signal',
    session: http([
      opens(10, 'POST 2', V2026),
      says(10, 'client', 'POST 2', call(1, 'slow')),
      answers(11, 'POST 2'),
      opens(500, 'POST 3', V2026),
      says(500, 'client', 'POST 3', cancel(1)),
    ]),
    cases: [{ status: 'fail', messageId: 'notified-stream-open', data: { request: SLOW, revision: '2026-07-28' } }],
  },
  {
    judge: 'client-resumes-only-pending',
    name: 'a resumption after the answer',
    session: http([
      ...HANDSHAKE_2025,
      opens(10, 'POST 2'),
      says(10, 'client', 'POST 2', call(1, 'slow', {}, 11)),
      answers(11, 'POST 2'),
      { ...says(100, 'server', 'POST 2', progress(11, 1)), event: 'e-1' },
      says(200, 'server', 'POST 2', result(1)),
      closes(200, 'POST 2'),
      opens(400, 'GET 3', { lastEventId: 'e-1' }),
    ]),
    cases: [{ status: 'fail', messageId: 'after-answer', data: { stream: 'GET 3', request: SLOW, afterMs: 200, nth: '' } }],
  },
];

const declarationOf = (id: SessionJudgeId) => (JUDGE_DECLARATIONS as readonly JudgeDeclaration[]).find((one) => one.id === id)!;

describe('what each judge observes, as message ids and data', () => {
  it.each([...ROWS, ...HTTP_ROWS].map((row) => [row.judge, row.name, row] as const))('%s: %s', (judge, _name, row) => {
    const observed = declarationOf(judge).observe(indexSession(row.session), row.options ?? OPTIONS);
    expect(observed.cases.map(({ status, messageId, data }) => ({ status, messageId, data }))).toEqual(row.cases);
  });
});

describe("a case's English is its declaration's template filled with its data", () => {
  it('renders each placeholder, once, and reports the rendered case', () => {
    const judge = serverProgressIncreases;
    const session = indexSession(ROWS[3]!.session);
    expect(judge.judge(session, OPTIONS).cases).toEqual([
      { status: 'fail', message: `progress for ${SLOW} has no numeric value`, lines: [6] },
    ]);
    // A datum's own braces are not placeholders.
    expect(
      judge.render({ status: 'fail', messageId: 'not-increasing', data: { request: '{{value}}', previous: 2, value: 1 }, lines: [] }),
    ).toBe('progress for {{value}} went from 2 to 1: it must increase');
  });
  it('every placeholder of every template has a datum in the observed cases above', () => {
    for (const row of [...ROWS, ...HTTP_ROWS]) {
      const judge = declarationOf(row.judge);
      for (const one of judge.observe(indexSession(row.session), row.options ?? OPTIONS).cases)
        expect(judge.render(one), `${row.judge} ${one.messageId}`).not.toMatch(/\{\{\w+\}\}/);
    }
  });
});
