import { describe, expect, it } from 'vitest';
import { progress } from '../../../src/probe/check-declarations/progress.js';
import { judgeProgress, type ProgressRun } from '../../../src/probe/checks/progress-judgement.js';
import { errorAt, progressAt, recordedCall, resultAt, testJudgement, type Wire } from './judgement-tester.js';

/** The timeouts the probe plays by default: idle 10 s, maximum 30 s. */
const DEFAULTS = { idleMs: 10_000, maxMs: 30_000, source: 'defaults' };
const answered = (wire: Wire): ProgressRun => ({
  tool: 'slow',
  call: recordedCall(wire),
  limitMs: 25_000,
  limitedByBudget: false,
  timeouts: DEFAULTS,
});
const unanswered = (
  wire: Wire,
  unanswered: ProgressRun['unanswered'],
  ended?: { closed: string },
  timeouts: ProgressRun['timeouts'] = DEFAULTS,
): ProgressRun => ({
  tool: 'slow',
  call: recordedCall(wire, ended),
  limitMs: 25_000,
  limitedByBudget: true,
  timeouts,
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
        name: 'never answered, nothing at all within the limit: past the idle timeout, a host gives up on every call',
        input: unanswered([], { progressCount: 0, signal: 'notification' }),
        messageId: 'stalled',
        data: { tool: 'slow', limitMs: 25_000, silentMs: 25_000, idleMs: 10_000, timeoutsFrom: 'defaults' },
        observed: { completed: false, progress: 0 },
      },
      {
        name: 'never answered: one progress at first, then quiet past the idle timeout',
        input: unanswered([progressAt(100, 1)], { progressCount: 1, signal: 'notification' }),
        messageId: 'stalled',
        data: { tool: 'slow', limitMs: 25_000, silentMs: 24_900, idleMs: 10_000, timeoutsFrom: 'defaults' },
        observed: { completed: false, progress: 1 },
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
        name: 'not finished within the limit, progress right so far and still coming',
        input: unanswered([progressAt(100, 1), progressAt(24_000, 2)], { progressCount: 2, signal: 'notification' }),
        messageId: 'unfinished',
        data: { tool: 'slow', limitMs: 25_000, limitReason: "what was left of the probe's budget" },
        observed: { completed: false, progress: 2 },
      },
      {
        name: 'quiet within the limit, but for less than the idle timeout a host keeps: the probe saw too little to say',
        input: unanswered([progressAt(100, 1), progressAt(200, 2)], { progressCount: 2, signal: 'notification' }, undefined, {
          ...DEFAULTS,
          idleMs: 60_000,
        }),
        messageId: 'unfinished',
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

describe('what a run that was not answered leaves the later checks', () => {
  const stallOf = (run: ProgressRun) => judgeProgress(run).stall;
  it('a quiet run records its stall: the tool, the limit, how long it was silent, the timeouts played', () => {
    expect(stallOf(unanswered([progressAt(100, 1)], { progressCount: 1 }))).toEqual({
      tool: 'slow',
      check: 'progress',
      limitMs: 25_000,
      silentMs: 24_900,
      progress: 1,
      idleMs: 10_000,
      maxMs: 30_000,
      timeoutsFrom: 'defaults',
    });
  });
  it('quiet for half the limit when the idle timeout is longer than the limit: still a stall (the later checks need not wait)', () => {
    const quiet = unanswered([progressAt(100, 1)], { progressCount: 1 }, undefined, { ...DEFAULTS, idleMs: 60_000 });
    expect(stallOf(quiet)).toMatchObject({ silentMs: 24_900 });
    expect(judgeProgress(quiet).outcome.status).toBe('inconclusive');
  });
  it('a run still sending progress when the limit passed is working, not stalled', () => {
    expect(stallOf(unanswered([progressAt(100, 1), progressAt(24_000, 2)], { progressCount: 2 }))).toBeUndefined();
  });
  it('an answered run, or one whose stream ended, records none', () => {
    expect(stallOf(answered([progressAt(100, 1), resultAt(200)]))).toBeUndefined();
    expect(
      stallOf(unanswered([], { why: 'the response stream ended', progressCount: 0 }, { closed: 'the response stream ended' })),
    ).toBeUndefined();
  });
});
