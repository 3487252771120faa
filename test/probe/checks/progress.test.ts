import { progress } from '../../../src/probe/check-declarations/progress.js';
import { judgeProgress, type ProgressRun } from '../../../src/probe/checks/progress-judgement.js';
import { errorAt, progressAt, recordedCall, resultAt, testJudgement, type Wire } from './judgement-tester.js';

const answered = (wire: Wire): ProgressRun => ({ tool: 'slow', call: recordedCall(wire), limitMs: 25_000, limitedByBudget: false });
const unanswered = (wire: Wire, unanswered: ProgressRun['unanswered'], ended?: { closed: string }): ProgressRun => ({
  tool: 'slow',
  call: recordedCall(wire, ended),
  limitMs: 25_000,
  limitedByBudget: true,
  ...(unanswered === undefined ? {} : { unanswered }),
});

testJudgement(
  progress,
  (run: ProgressRun) => judgeProgress(run).outcome,
  {
    pass: [
      {
        name: 'three increasing values, then the response',
        input: answered([progressAt(100, 1), progressAt(200, 2), progressAt(300, 3), resultAt(400)]),
        messageId: 'increasing',
        data: { count: 3 },
        observed: { completed: true, progress: 3, durationMs: 400 },
      },
      {
        name: 'fractional values strictly increasing',
        input: answered([progressAt(10, 0.1), progressAt(20, 0.5), resultAt(30)]),
        messageId: 'increasing',
        data: { count: 2 },
      },
    ],
    fail: [
      {
        name: 'a value repeated',
        input: answered([progressAt(100, 1), progressAt(200, 1), resultAt(300)]),
        messageId: 'notIncreasing',
        data: { value: '1', previous: '1' },
        observed: { completed: true, progress: 2 },
      },
      {
        name: 'a value without a number follows one',
        input: answered([progressAt(100, 1), progressAt(200, '2'), resultAt(300)]),
        messageId: 'notIncreasing',
        data: { value: '"2"', previous: '1' },
      },
      {
        name: 'progress after the response',
        input: answered([progressAt(100, 1), resultAt(200), progressAt(250, 2), progressAt(260, 3)]),
        messageId: 'progressAfterResponse',
        data: { count: 2 },
      },
      {
        name: 'two responses',
        input: answered([progressAt(100, 1), resultAt(200), resultAt(210)]),
        messageId: 'repeatedResponses',
        data: { count: 1 },
      },
      {
        name: 'the stream ended before the response',
        input: unanswered(
          [progressAt(100, 1)],
          { why: 'the response stream ended', progressCount: 1, signal: 'notification' },
          { closed: 'the response stream ended' },
        ),
        messageId: 'requestEnded',
        data: { why: 'the response stream ended' },
      },
      {
        name: 'unfinished, but progress went backwards meanwhile',
        input: unanswered([progressAt(100, 2), progressAt(200, 1)], { progressCount: 2, signal: 'close-stream' }),
        messageId: 'notIncreasing',
        data: { value: '1', previous: '2' },
      },
    ],
    inconclusive: [
      {
        name: 'not finished within the limit, progress right so far',
        input: unanswered([progressAt(100, 1), progressAt(200, 2)], { progressCount: 2, signal: 'notification' }),
        messageId: 'unfinished',
        data: { tool: 'slow', limitMs: 25_000, limitReason: "what was left of the probe's budget" },
        observed: { completed: false, progress: 2 },
      },
      {
        name: 'answered with no progress at all (a server may send none)',
        input: answered([resultAt(50)]),
        messageId: 'noProgress',
        data: { tool: 'slow', durationMs: 50 },
        observed: { completed: true, progress: 0 },
      },
      {
        name: 'the tool failed: nothing to check',
        input: answered([errorAt(20, -32602, 'bad arguments')]),
        messageId: 'toolFailed',
        data: { tool: 'slow', failure: 'an error: {"code":-32602,"message":"bad arguments"}' },
      },
      {
        name: 'a tool result flagged isError: nothing to check',
        input: answered([resultAt(20, { isError: true, content: [{ type: 'text', text: 'no' }] })]),
        messageId: 'toolFailed',
      },
    ],
  },
  { unexercised: ['noLongTool'] },
);
