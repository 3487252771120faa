// Each scenario's outcome as a pure function of a recorded session (RuleTester-style): a transcript of what a client
// and the scenario server said, judged by the judges, then read per scenario by scenarioOutcomes. No process, no timer.
import { describe, expect, it } from 'vitest';
import type { Party } from '../../src/judges/session-transcript.js';
import { judgeSession } from '../../src/judges/judge-session.js';
import { scenarioOutcomes } from '../../src/probe-client/scenario-outcomes.js';
import { SCENARIOS } from '../../src/probe-client/scenarios.js';
import { call, cancel, progress, request, result, transcript } from '../judges/session-builder.js';

const OPTIONS = { idleTimeoutMs: 300, maxTimeoutMs: 1200, toleranceMs: 300, graceMs: 100 };
const HANDSHAKE: [number, Party, unknown][] = [
  [0, 'client', request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })],
  [1, 'server', result(0, { protocolVersion: '2025-11-25' })],
];
const error = (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'the scenario fails' } });

interface Row {
  readonly name: string;
  readonly scenario: string;
  readonly messages: readonly [number, Party, unknown][];
  readonly status: 'pass' | 'fail' | 'inconclusive' | 'not-observable';
  /** A judge whose case about the scenario's call decided it. */
  readonly decidedBy?: string;
}

const ROWS: readonly Row[] = [
  {
    name: 'cancelled at the idle timeout',
    scenario: 'never_answers',
    messages: [
      [10, 'client', call(1, 'never_answers')],
      [320, 'client', cancel(1)],
    ],
    status: 'pass',
    decidedBy: 'client-cancels-on-idle-timeout',
  },
  {
    name: 'left waiting past the idle timeout, never cancelled',
    scenario: 'never_answers',
    messages: [
      [10, 'client', call(1, 'never_answers')],
      [1500, 'client', request(2, 'ping')],
      [1501, 'server', result(2)],
    ],
    status: 'fail',
    decidedBy: 'client-cancels-on-idle-timeout',
  },
  {
    name: 'cancelled long after the idle timeout',
    scenario: 'never_answers',
    messages: [
      [10, 'client', call(1, 'never_answers')],
      [900, 'client', cancel(1)],
    ],
    status: 'fail',
    decidedBy: 'client-cancels-on-idle-timeout',
  },
  {
    name: 'answered before the timeout and left alone',
    scenario: 'answers_after',
    messages: [
      [10, 'client', call(1, 'answers_after', { ms: 200 })],
      [210, 'server', result(1)],
      [600, 'client', request(2, 'ping')],
      [601, 'server', result(2)],
    ],
    status: 'pass',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'answered, then cancelled anyway',
    scenario: 'answers_after',
    messages: [
      [10, 'client', call(1, 'answers_after', { ms: 200 })],
      [210, 'server', result(1)],
      // Past the grace: a cancellation that crossed the answer in flight is no fault.
      [500, 'client', cancel(1)],
    ],
    status: 'fail',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'progress until the maximum, cancelled there',
    scenario: 'progress_forever',
    messages: [
      [10, 'client', call(1, 'progress_forever', {}, 7)],
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((step): [number, Party, unknown] => [10 + step * 150, 'server', progress(7, step)]),
      [1215, 'client', cancel(1)],
    ],
    status: 'pass',
    decidedBy: 'client-enforces-maximum',
  },
  {
    name: 'progress past the maximum, never cancelled',
    scenario: 'progress_forever',
    messages: [
      [10, 'client', call(1, 'progress_forever', {}, 7)],
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((step): [number, Party, unknown] => [
        10 + step * 150,
        'server',
        progress(7, step),
      ]),
    ],
    status: 'fail',
    decidedBy: 'client-enforces-maximum',
  },
  {
    name: 'progress keeps it alive, the answer comes, nothing is cancelled',
    scenario: 'progress_then_finish',
    messages: [
      [10, 'client', call(1, 'progress_then_finish', {}, 7)],
      ...[1, 2, 3, 4, 5].map((step): [number, Party, unknown] => [10 + step * 100, 'server', progress(7, step)]),
      [560, 'server', result(1)],
      [1000, 'client', request(2, 'ping')],
      [1001, 'server', result(2)],
    ],
    status: 'pass',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'progress then the answer, then a cancellation of the answered call',
    scenario: 'progress_then_finish',
    messages: [
      [10, 'client', call(1, 'progress_then_finish', {}, 7)],
      ...[1, 2, 3, 4, 5].map((step): [number, Party, unknown] => [10 + step * 100, 'server', progress(7, step)]),
      [560, 'server', result(1)],
      [900, 'client', cancel(1)],
    ],
    status: 'fail',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'an error is an answer: not cancelled',
    scenario: 'fails',
    messages: [
      [10, 'client', call(1, 'fails')],
      [110, 'server', error(1)],
      [600, 'client', request(2, 'ping')],
      [601, 'server', result(2)],
    ],
    status: 'pass',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'an error, then a cancellation of the answered call',
    scenario: 'fails',
    messages: [
      [10, 'client', call(1, 'fails')],
      [110, 'server', error(1)],
      [400, 'client', cancel(1)],
    ],
    status: 'fail',
    decidedBy: 'client-cancels-only-pending',
  },
  {
    name: 'sent again with its key under a new id after giving up',
    scenario: 'slow_write',
    messages: [
      [10, 'client', call(1, 'slow_write', { idempotencyKey: 'k1' })],
      [320, 'client', cancel(1)],
      [330, 'client', call(2, 'slow_write', { idempotencyKey: 'k1' })],
      [340, 'server', result(2)],
    ],
    status: 'pass',
    decidedBy: 'client-retry-keeps-key',
  },
  {
    name: 'sent again with a new key after giving up',
    scenario: 'slow_write',
    messages: [
      [10, 'client', call(1, 'slow_write', { idempotencyKey: 'k1' })],
      [320, 'client', cancel(1)],
      [330, 'client', call(2, 'slow_write', { idempotencyKey: 'k2' })],
      [340, 'server', result(2)],
    ],
    status: 'fail',
    decidedBy: 'client-retry-keeps-key',
  },
  {
    // slow_write is decided by its timeouts too: a client that gives up at its idle timeout and never sends it again
    // held the rule that was exercised.
    name: 'cancelled at the idle timeout and never sent again',
    scenario: 'slow_write',
    messages: [
      [10, 'client', call(1, 'slow_write', { idempotencyKey: 'k1' })],
      [320, 'client', cancel(1)],
    ],
    status: 'pass',
    decidedBy: 'client-cancels-on-idle-timeout',
  },
];

function outcomesOf(messages: readonly [number, Party, unknown][]) {
  const verdict = judgeSession(transcript([...HANDSHAKE, ...messages]), OPTIONS);
  return scenarioOutcomes([{ label: 'stdio', verdict }], OPTIONS);
}

describe('scenario outcomes, from recorded sessions', () => {
  it('the table covers every scenario that can be played over stdio, each both ways', () => {
    const stdio = SCENARIOS.map((one) => one.name).filter((name) => !name.startsWith('drop_stream'));
    for (const name of stdio) {
      expect(
        ROWS.some((row) => row.scenario === name && row.status === 'pass'),
        `${name} passes`,
      ).toBe(true);
      expect(
        ROWS.some((row) => row.scenario === name && row.status === 'fail'),
        `${name} fails`,
      ).toBe(true);
    }
  });

  it.each(ROWS)('$scenario: $name → $status', (row) => {
    const outcome = outcomesOf(row.messages).find((one) => one.scenario === row.scenario);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: row.status, calls: expect.any(Number) });
    if (row.decidedBy !== undefined)
      expect(outcome?.cases.filter((one) => one.status === row.status).map((one) => one.judge)).toContain(row.decidedBy);
  });

  it('a scenario the client never called is inconclusive; the drops are not applicable over stdio', () => {
    const outcomes = outcomesOf([
      [10, 'client', call(1, 'fails')],
      [110, 'server', error(1)],
    ]);
    expect(outcomes.find((one) => one.scenario === 'never_answers')).toMatchObject({ status: 'inconclusive', calls: 0 });
    expect(outcomes.find((one) => one.scenario === 'drop_stream_unresumable')).toMatchObject({
      status: 'not-observable',
      notApplicable: expect.stringMatching(/^not applicable over stdio/),
    });
  });
});
