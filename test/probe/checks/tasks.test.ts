import { describe, expect, it } from 'vitest';
import { tasks } from '../../../src/probe/check-declarations/tasks.js';
import type { CheckMessage } from '../../../src/probe/check-message.js';
import { type CancelRun, judgeTaskCancel, secondNotCreated } from '../../../src/probe/checks/task-cancel-judgement.js';
import {
  type DisconnectRun,
  judgeDisconnect,
  judgeTaskProgress,
  type TaskProgressRun,
} from '../../../src/probe/checks/task-lifetime-judgement.js';
import {
  type Answer,
  judgePolls,
  judgeTaskRead,
  judgeTaskResult,
  type PollRun,
  type ResultRun,
  type TaskRead,
} from '../../../src/probe/checks/task-polling-judgement.js';
import { concludeTasks, judgeTaskSetup, judgeUnfinished, type TaskSetup, type TaskSteps } from '../../../src/probe/checks/tasks-verdict.js';
import type { CheckOutcome } from '../../../src/probe/probe-types.js';
import { errorAt, resultAt } from './judgement-tester.js';
import { CREATION_MESSAGES } from './task-creation-messages.js';

/** One recorded step of the tasks check and what its judgement must conclude: a problem by message id, or none. */
interface StepCase<Input> {
  readonly name: string;
  readonly input: Input;
  /** The first problem's message id (or the unplayed or summary message's); none: the step passed. */
  readonly messageId?: string;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly observed?: Readonly<Record<string, unknown>>;
}

const exercised = new Set<string>();

function table<Input>(
  title: string,
  judge: (input: Input) => { messages: readonly (CheckMessage | undefined)[]; observed?: unknown },
  rows: readonly StepCase<Input>[],
): void {
  describe(title, () => {
    it('has unique case names and declared message ids', () => {
      expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
      for (const row of rows) if (row.messageId !== undefined) expect(Object.keys(tasks.messages)).toContain(row.messageId);
    });
    for (const row of rows) {
      if (row.messageId !== undefined) exercised.add(row.messageId);
      it(row.name, () => {
        const judged = judge(row.input);
        const message = judged.messages.find((candidate) => candidate !== undefined);
        expect(message?.messageId).toBe(row.messageId);
        if (row.data !== undefined) expect(message?.data).toEqual(row.data);
        if (row.observed !== undefined) expect(judged.observed).toMatchObject(row.observed);
      });
    }
  });
}

const answered = (received: ReturnType<typeof resultAt>): Answer => ({ received });
const task = (status: string, more: Record<string, unknown> = {}) => ({ taskId: 't1', status, ...more });
const read = (at: number, status: string, more: Record<string, unknown> = {}): TaskRead =>
  judgeTaskRead('t1', answered(resultAt(at, task(status, more))));
const creation = { id: 4, sentAt: 0 };

table(
  'a tasks/get answer',
  (input: Answer) => {
    const got = judgeTaskRead('t1', input);
    return { messages: ['failed' in got ? got.failed : undefined] };
  },
  [
    { name: 'the task with its status', input: answered(resultAt(10, task('working'))) },
    {
      name: 'unanswered',
      input: { unanswered: 'no response within 5000 ms' },
      messageId: 'getUnanswered',
      data: { taskId: 't1', why: 'no response within 5000 ms' },
    },
    {
      name: 'refused',
      input: answered(errorAt(10, -32602, 'unknown task')),
      messageId: 'getRefused',
      data: { taskId: 't1', error: 'error -32602 (unknown task)' },
    },
    { name: 'another task', input: answered(resultAt(10, { taskId: 't2', status: 'working' })), messageId: 'getNoStatus' },
    {
      name: 'an unknown status',
      input: answered(resultAt(10, task('running'))),
      messageId: 'getNoStatus',
      data: { taskId: 't1', result: '{"taskId":"t1","status":"running"}' },
    },
  ],
);

const polls = (reads: readonly TaskRead[], more: Partial<PollRun> = {}): PollRun => ({
  seed: task('working'),
  creation,
  reads,
  untilTerminal: true,
  ...more,
});
table(
  'polling a task with tasks/get',
  (input: PollRun) => {
    const polled = judgePolls(input);
    return { messages: [polled.problem], observed: polled };
  },
  [
    {
      name: 'working, then completed',
      input: polls([read(100, 'working'), read(300, 'completed')]),
      observed: {
        first: 'working',
        polls: 2,
        terminalAt: 300,
        done: true,
        text: 'tasks/get 2 times: working at 100 ms → completed at 300 ms',
      },
    },
    {
      name: 'still working: polling goes on at the suggested interval',
      input: polls([read(100, 'working', { pollInterval: 500 })]),
      observed: { done: false, intervalMs: 500 },
    },
    {
      name: 'cancelled stays cancelled after tasks/cancel',
      input: polls([read(100, 'cancelled'), read(300, 'cancelled')], { untilTerminal: false, expected: 'cancelled' }),
      observed: { polls: 2, done: false },
    },
    {
      name: 'a tasks/get unanswered',
      input: polls([read(100, 'working'), judgeTaskRead('t1', { unanswered: 'the stream ended' })]),
      messageId: 'getUnanswered',
      observed: { polls: 2, done: true },
    },
    {
      name: 'a terminal status that changes',
      input: polls([read(100, 'failed'), read(300, 'completed')], { untilTerminal: false }),
      messageId: 'terminalChanged',
      data: { taskId: 't1', atMs: 300, request: 4, before: 'failed', after: 'completed' },
      observed: { terminalAt: 100 },
    },
    {
      name: 'still working after tasks/cancel answered cancelled',
      input: polls([read(300, 'working')], { untilTerminal: false, expected: 'cancelled' }),
      messageId: 'notCancelledAfterCancel',
      data: { taskId: 't1', status: 'working', atMs: 300, request: 4, expected: 'cancelled' },
    },
  ],
);

const result = (status: string, more: Partial<ResultRun> = {}, inline: Record<string, unknown> = {}): ResultRun => ({
  taskId: 't1',
  last: { taskId: 't1', status, ...inline },
  creation,
  tasksResult: true,
  ...more,
});
table('the result of a terminal task', (input: ResultRun) => ({ messages: [judgeTaskResult(input).problem] }), [
  { name: 'tasks/result: a CallToolResult', input: result('completed', { answer: answered(resultAt(400, { content: [] }, 9)) }) },
  { name: 'tasks/result of a failed task: its error', input: result('failed', { answer: answered(errorAt(400, -32603, 'boom', 9)) }) },
  {
    name: 'inline: the completed task carries its result',
    input: result('completed', { tasksResult: false }, { result: { content: [] } }),
  },
  {
    name: 'tasks/result unanswered',
    input: result('completed', { answer: { unanswered: 'no response within 5000 ms' } }),
    messageId: 'resultUnanswered',
    data: { status: 'completed', taskId: 't1', why: 'no response within 5000 ms' },
  },
  {
    name: 'tasks/result of a completed task refused',
    input: result('completed', { answer: answered(errorAt(400, -32602, 'no', 9)) }),
    messageId: 'resultRefused',
    data: { taskId: 't1', error: 'error -32602 (no)', at: '400 ms after request 4' },
  },
  {
    name: 'tasks/result without content',
    input: result('completed', { answer: answered(resultAt(400, { value: 1 }, 9)) }),
    messageId: 'resultNotCallToolResult',
  },
  {
    name: 'inline: a completed task without its result',
    input: result('completed', { tasksResult: false }),
    messageId: 'noInlineResult',
    data: { taskId: 't1' },
  },
  {
    name: 'inline: a failed task without its error',
    input: result('failed', { tasksResult: false }),
    messageId: 'noInlineError',
    data: { taskId: 't1' },
  },
]);

const progress = (times: readonly number[], more: Partial<TaskProgressRun> = {}): TaskProgressRun => ({
  call: creation,
  times,
  progressCount: times.length,
  notIncreasing: [],
  cutoff: 1000,
  allowanceMs: 100,
  progressForTaskLifetime: true,
  because: 'task t1 was completed',
  ...more,
});
table('progress for a task-creating request', (input: TaskProgressRun) => ({ messages: judgeTaskProgress(input).problems }), [
  { name: 'progress until the task is terminal (and within the allowance)', input: progress([200, 600, 1050]) },
  {
    name: 'progress after the terminal status',
    input: progress([200, 1200, 1300]),
    messageId: 'lateProgress',
    data: { count: 2, request: 4, after: 'task t1 was completed', firstMs: 1200, rule: 'progress stops when the task is terminal' },
  },
  {
    name: 'progress after the create result, where tasks send none',
    input: progress([1500], { progressForTaskLifetime: false }),
    messageId: 'lateProgress',
    data: {
      count: 1,
      request: 4,
      after: 'the create result answered the request',
      firstMs: 1500,
      rule: 'progress is not sent for tasks on this revision',
    },
  },
  {
    name: 'progress not increasing',
    input: progress([200, 300], { notIncreasing: [{ value: '1', previous: '2' }] }),
    messageId: 'progressNotIncreasing',
    data: { value: '1', previous: '2', request: 4 },
  },
]);

const watched = (...reads: TaskRead[]) => judgePolls({ seed: task('working'), creation, reads, untilTerminal: false });
const cancel = (answer: Answer, more: Partial<CancelRun> = {}): CancelRun => ({
  taskId: 't1',
  second: creation,
  cancelledAfterMs: 50,
  watchMs: 2000,
  cancelIsTerminal: true,
  terminalCancelRefused: true,
  answer,
  ...more,
});
const cancelledAnswer = answered(resultAt(80, task('cancelled'), 5));
const refusedAgain = answered(errorAt(900, -32602, 'terminal', 6));
table(
  'tasks/cancel of the second task',
  (input: CancelRun) => {
    const verdict = judgeTaskCancel(input);
    return { messages: [verdict.problems[0], verdict.unplayed, verdict.summary], observed: verdict.observed };
  },
  [
    {
      name: 'moved to cancelled, stayed cancelled, a second cancel refused',
      input: cancel(cancelledAnswer, { watched: watched(read(200, 'cancelled')), again: refusedAgain }),
      messageId: 'cancelHeld',
      data: { at: '80 ms after request 4', watchMs: 2000 },
      observed: { cancelStatus: 'cancelled', afterCancel: 'cancelled', firstAfterCancel: 'cancelled', cancelTerminalCode: -32602 },
    },
    {
      name: 'acknowledged, then cancelled',
      input: cancel(answered(resultAt(80, {}, 5)), {
        cancelIsTerminal: false,
        watched: watched(read(200, 'working'), read(400, 'cancelled')),
      }),
      messageId: 'cancelAcknowledged',
      data: { at: '80 ms after request 4', status: 'cancelled' },
      observed: { cancelStatus: 'acknowledged', firstAfterCancel: 'working', afterCancel: 'cancelled' },
    },
    {
      name: 'acknowledged, still working when the watch ended',
      input: cancel(answered(resultAt(80, {}, 5)), { cancelIsTerminal: false, watched: watched(read(200, 'working')) }),
      messageId: 'cancelStillRunning',
      data: { at: '80 ms after request 4', status: 'working', watchMs: 2000 },
    },
    {
      name: 'refused, the task having completed already',
      input: cancel(answered(errorAt(80, -32602, 'done', 5)), { statusNow: read(100, 'completed') }),
      messageId: 'alreadyEnded',
      data: { status: 'completed', error: 'error -32602 (done)' },
    },
    {
      name: 'refused while it was working',
      input: cancel(answered(errorAt(80, -32601, 'no', 5)), { statusNow: read(100, 'working') }),
      messageId: 'cancelRefused',
      data: { status: 'working', taskId: 't1', error: 'error -32601 (no)', at: '80 ms after request 4' },
      observed: { cancelStatus: 'refused' },
    },
    {
      name: 'unanswered',
      input: cancel({ unanswered: 'no response within 5000 ms' }),
      messageId: 'cancelUnanswered',
      data: { taskId: 't1', why: 'no response within 5000 ms' },
    },
    {
      name: 'answered working where it moves the task to cancelled first',
      input: cancel(answered(resultAt(80, task('working'), 5)), {
        watched: judgePolls({ seed: task('working'), creation, reads: [read(300, 'completed')], untilTerminal: true }),
      }),
      messageId: 'cancelNotTerminal',
      data: { taskId: 't1', answer: 'status working', at: '80 ms after request 4' },
      observed: { cancelStatus: 'working', afterCancel: 'completed' },
    },
    {
      name: 'acknowledged with a result that is not an object',
      input: cancel(answered({ at: 80, message: { jsonrpc: '2.0', id: 5, result: 'ok' } }), { cancelIsTerminal: false }),
      messageId: 'cancelAckNotObject',
      data: { taskId: 't1', at: '80 ms after request 4' },
    },
    {
      name: 'cancelled, then completed',
      input: cancel(cancelledAnswer, { watched: watched(read(200, 'cancelled'), read(400, 'completed')), again: refusedAgain }),
      messageId: 'terminalChanged',
    },
    {
      name: 'a second cancel of the cancelled task unanswered',
      input: cancel(cancelledAnswer, { watched: watched(read(200, 'cancelled')), again: { unanswered: 'no response within 5000 ms' } }),
      messageId: 'terminalCancelUnanswered',
      data: { taskId: 't1', why: 'no response within 5000 ms' },
    },
    {
      name: 'a second cancel of the cancelled task accepted',
      input: cancel(cancelledAnswer, { watched: watched(read(200, 'cancelled')), again: answered(resultAt(900, task('cancelled'), 6)) }),
      messageId: 'terminalCancelAnswered',
      data: { taskId: 't1', answer: 'a result' },
    },
    {
      name: 'a second cancel accepted where the revision allows it',
      input: cancel(cancelledAnswer, {
        terminalCancelRefused: false,
        watched: watched(read(200, 'cancelled')),
        again: answered(resultAt(900, task('cancelled'), 6)),
      }),
      messageId: 'cancelHeld',
    },
  ],
);

const lookup = (got: TaskRead, anyClientFindsIt = true): DisconnectRun => ({
  how: 'from a new session (its own initialize)',
  taskId: 't1',
  creation,
  read: got,
  anyClientFindsIt,
});
const gone = judgeTaskRead('t1', answered(errorAt(50, -32602, 'unknown task', 7)));
table(
  'the first task looked up from a fresh connection',
  (input: DisconnectRun) => {
    const verdict = judgeDisconnect(input);
    return { messages: [verdict.problem], observed: verdict };
  },
  [
    { name: 'found', input: lookup(read(1200, 'completed')), observed: { status: 'seen', survives: true } },
    { name: 'over stdio: not observable', input: { notObservable: true }, observed: { status: 'not-observable' } },
    {
      name: 'no fresh connection',
      input: { how: 'from a new session (its own initialize)', taskId: 't1', failed: 'HTTP 503' },
      observed: { status: 'inconclusive' },
    },
    {
      name: 'unanswered: says nothing of the task',
      input: lookup(judgeTaskRead('t1', { unanswered: 'no response within 5000 ms' })),
      observed: { status: 'inconclusive' },
    },
    {
      name: 'not found where a server may scope tasks to their session',
      input: lookup(gone, false),
      observed: { status: 'seen', survives: false },
    },
    {
      name: 'answered without the task: an answer says it is gone',
      input: lookup(judgeTaskRead('t1', answered(resultAt(50, {}, 7)))),
      messageId: 'lostOnDisconnect',
      observed: { status: 'seen', survives: false },
    },
    {
      name: 'not found where any client finds a task',
      input: lookup(gone),
      messageId: 'lostOnDisconnect',
      data: {
        how: 'from a new session (its own initialize)',
        taskId: 't1',
        failure: 'tasks/get of task t1 was refused with error -32602 (unknown task)',
      },
      observed: { status: 'seen', survives: false },
    },
  ],
);

const asMessage = (outcome: CheckOutcome | undefined): CheckMessage | undefined =>
  outcome?.messageId === undefined ? undefined : { messageId: outcome.messageId, data: outcome.data ?? {}, text: outcome.summary };
const declares = (ok: boolean) => ({
  ok,
  why: ok
    ? 'the server declares capabilities.tasks.requests.tools.call'
    : 'the server does not declare capabilities.tasks.requests.tools.call',
});
const exportTool = { name: 'export', taskSupport: 'optional' };

table(
  'what the check has before it sends anything',
  (input: TaskSetup<typeof exportTool>) => {
    const setup = judgeTaskSetup(input);
    return { messages: ['verdict' in setup ? asMessage(setup.verdict) : undefined] };
  },
  [
    { name: 'a tool, tasks declared', input: { tool: exportTool, declared: declares(true) } },
    {
      name: 'no tool',
      input: { noTaskTool: 'no tool has execution.taskSupport', declared: declares(true) },
      messageId: 'noTaskTool',
      data: { why: 'no tool has execution.taskSupport' },
    },
    {
      name: 'no tool, tasks not declared',
      input: { declared: declares(false) },
      messageId: 'noTaskToolUndeclared',
      data: { why: 'none was chosen', undeclared: declares(false).why },
    },
    { name: 'a tool, tasks not declared', input: { tool: exportTool, declared: declares(false) }, messageId: 'notDeclared' },
    {
      name: 'a tool that requires tasks, tasks not declared',
      input: { tool: { name: 'export', taskSupport: 'required' }, declared: declares(false) },
      messageId: 'notDeclaredRequired',
      data: { undeclared: declares(false).why, tool: 'export' },
    },
  ],
);

table(
  'the first task not terminal at the limit',
  (input: Parameters<typeof judgeUnfinished>[0]) => ({
    messages: [asMessage(judgeUnfinished(input, [], { created: true }))],
  }),
  [
    {
      name: 'still working',
      input: { taskId: 't1', tool: 'export', status: 'working', limitMs: 25_000 },
      messageId: 'stillRunning',
      data: { taskId: 't1', tool: 'export', status: 'working', limitMs: 25_000 },
    },
    {
      name: 'its tool stalled as a plain call: polled a few times, not waited for again',
      input: { taskId: 't1', tool: 'export', status: 'working', limitMs: 2000, stall: { limitMs: 65_000, check: 'progress' } },
      messageId: 'notWaitedAgain',
      data: { taskId: 't1', tool: 'export', status: 'working', limitMs: 2000, stallMs: 65_000, check: 'progress' },
    },
  ],
);

const steps = (more: Partial<TaskSteps>): TaskSteps => ({
  taskId: 't1',
  terminal: 'completed',
  runMs: 400,
  polls: 3,
  problems: [],
  cancel: {},
  disconnect: 'found',
  details: [],
  observed: { created: true },
  ...more,
});
const held = judgeTaskCancel(cancel(cancelledAnswer, { watched: watched(read(200, 'cancelled')), again: refusedAgain }));
table(
  "the check's verdict from its steps",
  (input: TaskSteps) => {
    const verdict = concludeTasks(input);
    return { messages: [asMessage(verdict)], observed: verdict };
  },
  [
    {
      name: 'every step passed',
      input: steps({ cancel: held }),
      messageId: 'passed',
      data: { taskId: 't1', terminal: 'completed', runMs: '400', polls: 3, cancel: held.summary?.text ?? '', disconnect: 'found' },
      observed: { status: 'pass' },
    },
    {
      name: 'the first problem fails it',
      input: steps({ cancel: held, problems: [judgeTaskResult(result('completed', { tasksResult: false })).problem as CheckMessage] }),
      messageId: 'noInlineResult',
      observed: { status: 'fail' },
    },
    {
      name: 'the second task was not created',
      input: steps({ cancel: secondNotCreated(undefined) }),
      messageId: 'cancelUnplayed',
      data: { taskId: 't1', terminal: 'completed', unplayed: 'the second task was not created: undefined' },
      observed: { status: 'inconclusive' },
    },
  ],
);
table('the second task not created', (input: CheckMessage | undefined) => ({ messages: [secondNotCreated(input).unplayed] }), [
  {
    name: "the tool's arguments refused",
    input: { messageId: 'toolRefused', data: {}, text: 'export answered with an error' },
    messageId: 'secondNotCreated',
    data: { why: 'export answered with an error' },
  },
]);

/** The plan's one message for a creation judged neither way (never given); the creation step's are tabled elsewhere. */
const PLAN = ['noTask'];

describe("the tasks check's step tables", () => {
  it('exercise every message the tasks check declares for its steps', () => {
    const missing = Object.keys(tasks.messages).filter((id) => !exercised.has(id) && !CREATION_MESSAGES.includes(id) && !PLAN.includes(id));
    expect(missing).toEqual([]);
  });
});
