import type { CheckStatus } from '../../../src/live/outcome.js';
import type { CancelObservation, CancelSignal } from '../../../src/live/probe-observations.js';
import type { SilenceRun } from '../../../src/probe/checks/silence-judgement.js';
import { MOST_DEPLOYED_REVISION } from '../../../src/spec/revisions.js';
import type { Stall } from '../../../src/probe/stall.js';
import { cancelledCall, errorAt, type JudgementCase, progressAt, resultAt } from './judgement-tester.js';

type Run = SilenceRun<CancelObservation>;

/** What the progress check recorded of a tool that never answered: nothing at all for its 65 s. */
export const STALL: Stall = {
  tool: 'slow_job',
  check: 'progress',
  limitMs: 65_000,
  silentMs: 65_000,
  progress: 0,
  idleMs: 10_000,
  maxMs: 30_000,
  timeoutsFrom: 'defaults',
};

/**
 * A cancellation at 250 ms with an in-flight allowance to 350 ms, after progress 1 and 2; then `after`. With
 * `acknowledgedAt`, the server answered the cancellation's POST then (Streamable HTTP, 2025-11-25).
 */
function run(
  after: Parameters<typeof cancelledCall>[0],
  more: Partial<Run> = {},
  signal: CancelSignal = 'notification',
  acknowledgedAt?: number,
): Run {
  return {
    call: cancelledCall([progressAt(100, 1), progressAt(200, 2), ...after], 250, 350, acknowledgedAt),
    signal,
    session: { transport: 'stdio', hasSession: false, revision: MOST_DEPLOYED_REVISION },
    details: [],
    observed: { signal, watchedMs: 2000, toNaturalEnd: false },
    watchedMs: 2000,
    ...more,
  };
}

/** Recorded cancellations, by the status a check that cancels must give them (its own lead aside). */
export const SILENCE_ROWS: Partial<Record<CheckStatus, readonly JudgementCase<Run>[]>> = {
  pass: [
    {
      name: 'nothing after the cancellation',
      input: run([]),
      messageId: 'silent',
      data: { request: 1, watchedMs: 2000 },
      observed: { progressBeforeCancel: 2, progressAfterCancel: false, resultAfterCancel: false, answeredCancellation: false },
    },
    {
      name: 'progress already on the wire crossed the cancellation (within the allowance)',
      input: run([progressAt(300, 3)]),
      messageId: 'silent',
      observed: { progressAfterCancel: false },
    },
    {
      // A loaded machine: the POST of the cancellation reached the server late (answered at 700 ms); progress 3, read at
      // 500 ms, past the allowance counted from the probe's sending, was written before the server read it.
      name: "over HTTP, progress before the late answer to the cancellation's POST crossed it",
      input: run([progressAt(500, 3)], {}, 'notification', 700),
      messageId: 'silent',
      observed: { progressAfterCancel: false },
    },
    {
      name: 'the status tool counts no work after the cancellation',
      input: run([], { workStatus: { tool: 'jobs', running: 0 } }),
      messageId: 'workStopped',
      data: { tool: 'jobs', request: 1 },
    },
    {
      name: 'a tool that stalled before: the status tool still shows the work stopped',
      input: run([], { workStatus: { tool: 'jobs', running: 0 }, stall: STALL }),
      messageId: 'workStopped',
      data: { tool: 'jobs', request: 1 },
    },
  ],
  fail: [
    {
      name: 'progress after the allowance',
      input: run([progressAt(500, 3)]),
      messageId: 'sentAfterCancel',
      data: { messages: 'progress 3 500 ms after request 1' },
      observed: { progressAfterCancel: true, resultAfterCancel: false },
    },
    {
      name: 'the result after the allowance',
      input: run([resultAt(600)]),
      messageId: 'sentAfterCancel',
      data: { messages: 'a response 600 ms after request 1' },
      observed: { resultAfterCancel: true },
    },
    {
      name: 'over HTTP, a response 200 ms after the late answer to the cancellation, past the allowance counted from there',
      input: run([progressAt(500, 3), resultAt(900)], {}, 'notification', 700),
      messageId: 'sentAfterCancel',
      data: { messages: 'a response 900 ms after request 1' },
      observed: { progressAfterCancel: false, resultAfterCancel: true },
    },
    {
      name: 'an error that answers the cancellation, even within the allowance',
      input: run([errorAt(260, -32800, 'Request cancelled')]),
      messageId: 'sentAfterCancel',
      data: { messages: 'an error response 260 ms after request 1 that answers the cancellation' },
      observed: { answeredCancellation: true, resultAfterCancel: false },
    },
    {
      name: "the cancelled request's progress on another request's stream",
      input: run([{ ...progressAt(400, 3), onOtherStream: true }]),
      messageId: 'keptWriting',
      data: { request: 1, stream: '2', messages: 'progress 3 400 ms after request 1' },
    },
    {
      name: 'the cancellation notification was answered',
      input: run([], { answer: 'an error response {"code":-32601}' }),
      messageId: 'answeredCancellation',
      data: { answer: 'an error response {"code":-32601}' },
    },
    {
      name: 'the status tool still counts the work',
      input: run([], { workStatus: { tool: 'jobs', running: 1 } }),
      messageId: 'workWentOn',
      data: { tool: 'jobs', running: 1 },
    },
    {
      name: 'a tool that stalled before still fails for answering the cancellation',
      input: run([], { answer: 'an error response {"code":-32601}', stall: STALL }),
      messageId: 'answeredCancellation',
    },
    {
      name: 'the server stopped answering afterwards',
      input: run([], { unhealthy: 'the server no longer answers tools/list: the process exited' }),
      messageId: 'unhealthy',
      data: { why: 'the server no longer answers tools/list: the process exited' },
    },
  ],
  inconclusive: [
    {
      name: 'the response crossed the cancellation: nothing was cancelled',
      input: run([resultAt(300)]),
      messageId: 'crossed',
      data: { request: 1, atMs: 300 },
    },
    {
      // The allowance counts from the server's answer to the POST (700 ms), not from the probe's sending (250 ms).
      name: 'over HTTP, the response within the allowance after the late answer to the cancellation crossed it',
      input: run([resultAt(760)], {}, 'notification', 700),
      messageId: 'crossed',
      data: { request: 1, atMs: 760 },
    },
    {
      name: 'nothing after the cancellation of a tool that sent nothing uncancelled either: its silence shows nothing',
      input: run([], { stall: STALL, watchedMs: 1000 }),
      messageId: 'quietAnyway',
      data: { request: 1, watchedMs: 1000, tool: 'slow_job', silentMs: 65_000, check: 'progress' },
    },
  ],
  'not-observable': [
    {
      name: 'closing the stream is the cancellation, and nothing tells whether the work stopped',
      input: run([], {}, 'close-stream'),
      messageId: 'streamClosed',
      data: { revision: MOST_DEPLOYED_REVISION, request: 1 },
    },
    {
      name: 'closing the stream, with a second request open beside it that carried nothing',
      input: run([], { witness: { id: 2 } }, 'close-stream'),
      messageId: 'streamClosedWitnessed',
      data: { revision: MOST_DEPLOYED_REVISION, request: 1, witness: 2 },
    },
  ],
};
