import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import type { Call } from '../connection.js';
import type { ToolChoice } from '../probe-plan.js';
import { type CheckOutcome, judged, type ProbeCheck, type ProbeContext, RESERVE_MS, runLimitMs } from '../probe-types.js';
import { isProgress } from '../received.js';
import type { ProbeSession } from '../session.js';
import { pause, unanswered } from './observe.js';
import { judgeTaskCreation, type TaskCreation, type TaskState } from './task-creation.js';
import { advertises, EXTENSION, type TaskWire, wireOf } from './task-wire.js';
import { type Answer, judgePolls, judgeTaskRead, judgeTaskResult, type Polled, type TaskRead } from './task-polling-judgement.js';
import { cancelReplyOf, type Cancelled, judgeTaskCancel, secondNotCreated, type TasksObserved } from './task-cancel-judgement.js';
import { concludeTasks, judgeTaskSetup, judgeUnfinished } from './tasks-verdict.js';
import { type Disconnect, judgeDisconnect, judgeTaskProgress } from './task-lifetime-judgement.js';
import { TERMINAL_TASK_STATUSES } from '../../protocol/task-status.js';
import { METHODS } from '../../protocol/methods.js';
import type { TasksObservation } from '../../live/probe-observations.js';
import type { Stall } from '../stall.js';

const message = messagesOf(tasks);

/** `{ [key]: value }`, or nothing when the value is undefined (the types' exact optional properties). */
function optional<Key extends string, Value>(key: Key, value: Value | undefined): { [K in Key]?: Value } {
  return value === undefined ? {} : ({ [key]: value } as { [K in Key]?: Value });
}

/** The time-to-live the probe asks for where the client asks (params.task.ttl). */
const TTL_MS = 60_000;
/** How often the probe polls a task that suggests no interval, and the least it waits between two polls whatever it suggests. */
const DEFAULT_POLL_MS = 200;
const MIN_POLL_MS = 50;
/** How long the first task is polled when its tool stalled as a plain call: tasks/get is read a few times, not a full limit. */
const STALLED_POLL_MS = 2000;

/**
 * How long the first task is polled for a terminal status: the probe's limit for one run, or, when the tool stalled as a
 * plain call in an earlier check, a few polls (whether the task ends is not waited for again); and the stall, if so.
 */
function pollLimit(context: ProbeContext, tool: ToolChoice): { ms: number; stall?: Stall } {
  const stall = context.measured.stall;
  if (stall === undefined || stall.tool !== tool.name) return { ms: runLimitMs(context) };
  return { ms: Math.min(runLimitMs(context), STALLED_POLL_MS), stall };
}

/**
 * Tasks on the wire, with the revision's protocol: a task-augmented tools/call returns a task, tasks/get reaches a
 * terminal status (polled at the server's interval) and the result can be had; a second task cancelled with
 * tasks/cancel (never notifications/cancelled) ends as the revision says; over Streamable HTTP a fresh connection
 * still finds the first task. The plan: what it sends and when; each step's verdict is a pure judgement of what it
 * recorded (task-creation, task-polling-judgement, task-cancel-judgement, task-lifetime-judgement).
 */
export const tasksOnTheWire: ProbeCheck<'tasks'> = {
  ...tasks,
  limit(context) {
    const tool = context.plan.taskTool;
    if (tool === undefined) return undefined;
    return { tool: tool.name, ms: pollLimit(context, tool).ms, waitsFor: 'its first task to end' };
  },
  async run(context): Promise<CheckOutcome<TasksObservation>> {
    const wire = wireOf(context.revision);
    const declared = advertises(context.session.serverCapabilities ?? {}, wire);
    const setup = judgeTaskSetup({
      ...optional('tool', context.plan.taskTool),
      ...optional('noTaskTool', context.plan.noTaskTool),
      declared,
    });
    if ('verdict' in setup) return setup.verdict;
    const tool = setup.tool;
    const problems: CheckMessage[] = [];
    const support = wire.serverDirected ? 'the server decides per request' : `execution.taskSupport: ${tool.taskSupport}`;
    const details: string[] = [`runs ${tool.name} as a task (${support}); ${declared.why}`];
    const observed: TasksObserved = {};

    // (a) A task, polled to a terminal status, its result fetched.
    const first = await createTask(context, wire, tool);
    details.push(...first.details);
    if (first.problem !== undefined) return judged('fail', first.problem, details, undefined, { created: false });
    if (first.task === undefined)
      return judged('inconclusive', first.unplayed ?? message('noTask', {}), details, undefined, { created: false });
    observed.created = true;
    const { ms: limit, stall } = pollLimit(context, tool);
    const run = await poll(context, wire, first.call, first.task, context.clock() + limit, true);
    details.push(run.text);
    observed.polls = run.polls;
    if (run.problem !== undefined) problems.push(run.problem);
    const terminal = run.last?.status;
    if (terminal !== undefined && TERMINAL_TASK_STATUSES.has(terminal)) observed.terminal = terminal;
    const runMs = run.terminalAt === undefined ? undefined : Math.round(run.terminalAt - first.call.sentAt);
    if (run.problem === undefined && (terminal === undefined || !TERMINAL_TASK_STATUSES.has(terminal))) {
      await cancelQuietly(context, wire, first.task.taskId);
      const unfinished = {
        taskId: first.task.taskId,
        tool: tool.name,
        ...optional('status', terminal),
        limitMs: limit,
        ...optional('stall', stall),
      };
      return judgeUnfinished(unfinished, details, observed);
    }
    if (run.problem === undefined) {
      const fetched = await fetchResult(context, wire, first.call, first.task.taskId, run.last!);
      details.push(fetched.text);
      observed.resultRetrieved = fetched.problem === undefined;
      if (fetched.problem !== undefined) problems.push(fetched.problem);
    }

    // (b) A second task, cancelled with tasks/cancel (meanwhile, late progress for the first one has time to show).
    const cancel = await cancelTask(context, wire, tool, runMs);
    if (run.terminalAt !== undefined) {
      const cutoff = wire.progressForTaskLifetime ? run.terminalAt : (first.response?.at ?? run.terminalAt);
      const progress = await progressAfter(context, first.call, cutoff, wire, `task ${first.task.taskId} was ${terminal}`);
      observed.progress = first.call.inbox.progressCount;
      details.push(progress.text);
      problems.push(...progress.problems);
    }
    details.push(...cancel.details);
    Object.assign(observed, cancel.observed);
    problems.push(...cancel.problems);

    // (c) The first task from a fresh connection.
    const survival = await afterDisconnect(context, wire, first.task.taskId, first.call);
    details.push(survival.text);
    if (survival.survives !== undefined) observed.survivesDisconnect = survival.survives;
    observed.disconnect = survival.status;
    if (survival.problem !== undefined) problems.push(survival.problem);

    return concludeTasks({
      taskId: first.task.taskId,
      ...optional('terminal', terminal),
      ...optional('runMs', runMs),
      polls: run.polls,
      problems,
      cancel,
      disconnect: survival.summary,
      details,
      observed,
    });
  },
};

interface Created {
  readonly call: Call;
  readonly response?: Call['inbox']['response'];
  readonly task?: TaskState;
  /** Why no task could be created that is no fault of the server's (arguments, its choice). */
  readonly unplayed?: CheckMessage;
  readonly problem?: CheckMessage;
  readonly details: string[];
}

/** A task-augmented tools/call (params.task, or the extension declared for the request), with its own progress token. */
async function createTask(context: ProbeContext, wire: TaskWire, tool: ToolChoice): Promise<Created> {
  const session = context.session;
  const params = { name: tool.name, arguments: tool.arguments, ...(wire.serverDirected ? {} : { task: { ttl: TTL_MS } }) };
  const call = await session.call(METHODS.toolsCall, params, true, context.owner, wire.capabilities);
  const how = wire.serverDirected ? `declaring ${EXTENSION} in the request's capabilities` : `with params.task { ttl: ${TTL_MS} }`;
  const wait = Math.max(0, Math.min(context.plan.requestTimeoutMs, context.budgetLeft() - RESERVE_MS));
  const response = await call.inbox.waitForResponse(wait);
  const judgedRun = { tool, serverDirected: wire.serverDirected, how, call };
  if (response === undefined) {
    const why = call.inbox.why;
    await session.giveUp(call, why ?? `no response within ${wait} ms`, context.owner);
    const unanswered = { ...(why === undefined ? {} : { why }), waitedMs: wait, budgetCut: wait < context.plan.requestTimeoutMs };
    return { call, ...creationOf(judgeTaskCreation({ ...judgedRun, unanswered })) };
  }
  return { call, response, ...creationOf(judgeTaskCreation({ ...judgedRun, response })) };
}

/** A creation's judgement as the check's steps read it. */
function creationOf(judgedCreation: TaskCreation): Pick<Created, 'task' | 'problem' | 'unplayed' | 'details'> {
  if ('task' in judgedCreation) return { task: judgedCreation.task, details: [judgedCreation.detail] };
  if ('problem' in judgedCreation) return { problem: judgedCreation.problem, details: [] };
  return { unplayed: judgedCreation.unplayed, details: [] };
}

/**
 * Polls tasks/get at the server's interval until a terminal status (`untilTerminal`), a problem, or `deadline`
 * (probe clock); what was read is judged by `judgePolls`.
 */
async function poll(
  context: ProbeContext,
  wire: TaskWire,
  creation: Call,
  seed: TaskState,
  deadline: number,
  untilTerminal: boolean,
  expected?: string,
): Promise<Polled> {
  const reads: TaskRead[] = [];
  const judgeReads = () => judgePolls({ seed, creation, reads, untilTerminal, ...(expected === undefined ? {} : { expected }) });
  let polled = judgeReads();
  for (;;) {
    const wait = Math.max(MIN_POLL_MS, polled.intervalMs ?? DEFAULT_POLL_MS);
    if (reads.length > 0 && context.clock() + wait > deadline) break;
    if (reads.length > 0) await pause(context, wait);
    reads.push(await getTask(context, wire, context.session, seed.taskId, deadline));
    polled = judgeReads();
    if (polled.done) break;
  }
  return polled;
}

/** One tasks/get, judged by `judgeTaskRead`. */
async function getTask(
  context: ProbeContext,
  wire: TaskWire,
  session: ProbeSession,
  taskId: string,
  deadline = Number.POSITIVE_INFINITY,
): Promise<TaskRead> {
  const timeout = Math.max(1, Math.min(context.plan.requestTimeoutMs, deadline - context.clock() + context.plan.requestTimeoutMs / 2));
  const call = await session.request(METHODS.tasksGet, { taskId }, timeout, context.owner, wire.capabilities);
  return judgeTaskRead(taskId, answerOf(call, timeout));
}

/** A request's answer as recorded: its response, or why none came. */
function answerOf(call: Call, waitedMs: number): Answer {
  const received = call.inbox.response;
  return received === undefined ? { unanswered: unanswered(call, waitedMs) } : { received };
}

/** The result of a terminal task: tasks/result, or inline in tasks/get, as the revision has it (`judgeTaskResult`). */
async function fetchResult(context: ProbeContext, wire: TaskWire, creation: Call, taskId: string, last: TaskState) {
  const asked = { taskId, last, creation, tasksResult: wire.tasksResult };
  if (!wire.tasksResult) return judgeTaskResult(asked);
  const timeout = context.plan.requestTimeoutMs;
  const call = await context.session.request(METHODS.tasksResult, { taskId }, timeout, context.owner, wire.capabilities);
  return judgeTaskResult({ ...asked, answer: answerOf(call, timeout) });
}

/** Progress of a task-creating request that came after `cutoff` (plus the in-flight allowance), judged by `judgeTaskProgress`. */
async function progressAfter(context: ProbeContext, call: Call, cutoff: number, wire: TaskWire, because: string) {
  const times: number[] = [];
  // The queue is read without waiting: what has already arrived.
  for (let received = await call.inbox.next(isProgress, 0); received !== undefined; received = await call.inbox.next(isProgress, 0))
    times.push(received.at);
  return judgeTaskProgress({
    call,
    times,
    progressCount: call.inbox.progressCount,
    notIncreasing: call.inbox.notIncreasing,
    cutoff,
    allowanceMs: context.session.inFlightMs,
    progressForTaskLifetime: wire.progressForTaskLifetime,
    because,
  });
}

/** A second task, cancelled with tasks/cancel and watched as its answer asks, judged by `judgeTaskCancel`. */
async function cancelTask(context: ProbeContext, wire: TaskWire, tool: ToolChoice, runMs: number | undefined): Promise<Cancelled> {
  const second = await createTask(context, wire, tool);
  const created = second.details;
  if (second.problem !== undefined) return { problems: [second.problem], details: created, observed: {} };
  if (second.task === undefined) return { ...secondNotCreated(second.unplayed), details: created };
  const taskId = second.task.taskId;
  const timeout = context.plan.requestTimeoutMs;
  const cancel = await context.session.request(METHODS.tasksCancel, { taskId }, timeout, context.owner, wire.capabilities);
  const cancelledAfterMs = Math.round(cancel.sentAt - second.call.sentAt);
  // How long to watch: until the uncancelled run would have ended, plus the grace period, within the probe's limits.
  const rest = (runMs ?? context.plan.longRunMs / 2) - cancelledAfterMs;
  const watchMs = Math.max(
    0,
    Math.min(Math.max(context.plan.graceMs, rest + context.plan.graceMs), context.plan.longRunMs, context.budgetLeft() - RESERVE_MS),
  );
  const answer = answerOf(cancel, timeout);
  const recorded = {
    taskId,
    second: second.call,
    cancelledAfterMs,
    watchMs,
    cancelIsTerminal: wire.cancelIsTerminal,
    terminalCancelRefused: wire.terminalCancelRefused,
    answer,
  };
  const judgedCancel = (more: Partial<Parameters<typeof judgeTaskCancel>[0]> = {}): Cancelled => {
    const verdict = judgeTaskCancel({ ...recorded, ...more });
    return { ...verdict, details: [...created, ...verdict.details] };
  };
  const answeredAt = 'received' in answer ? answer.received.at : 0;
  switch (cancelReplyOf(answer, wire.cancelIsTerminal)) {
    case 'unanswered':
    case 'not-object':
      return judgedCancel();
    case 'refused':
      return judgedCancel({ statusNow: await getTask(context, wire, context.session, taskId) });
    case 'not-cancelled':
      return judgedCancel({ watched: await poll(context, wire, second.call, second.task, context.clock() + watchMs, true) });
    case 'cancelled': {
      const watched = await poll(context, wire, second.call, second.task, context.clock() + watchMs, false, 'cancelled');
      const progress = await progressAfter(context, second.call, answeredAt, wire, `task ${taskId} was cancelled`);
      const again = await context.session.request(METHODS.tasksCancel, { taskId }, timeout, context.owner, wire.capabilities);
      return judgedCancel({ watched, progressProblems: progress.problems, again: answerOf(again, timeout) });
    }
    case 'acknowledged': {
      const watched = await poll(context, wire, second.call, second.task, context.clock() + watchMs, false);
      const progress = await progressAfter(context, second.call, second.response?.at ?? answeredAt, wire, '');
      return judgedCancel({ watched, progressProblems: progress.problems });
    }
  }
}

/** Whether a fresh connection finds the first task (over Streamable HTTP only), judged by `judgeDisconnect`. */
async function afterDisconnect(context: ProbeContext, wire: TaskWire, taskId: string, creation: Call): Promise<Disconnect> {
  const transport = context.session.connection.transport;
  if (transport === 'stdio' || context.reconnect === undefined) return judgeDisconnect({ notObservable: true });
  const fresh = await context.reconnect();
  const how = wire.serverDirected ? 'from a fresh client (its own server/discover)' : 'from a new session (its own initialize)';
  if ('failed' in fresh) return judgeDisconnect({ how, taskId, failed: fresh.failed });
  try {
    const read = await getTask(context, wire, fresh.session, taskId);
    return judgeDisconnect({ how, taskId, creation, read, anyClientFindsIt: wire.anyClientFindsIt });
  } finally {
    await fresh.close();
  }
}

/** A task left running when the check gives up on it is cancelled, with the task's own method. */
async function cancelQuietly(context: ProbeContext, wire: TaskWire, taskId: string): Promise<void> {
  await context.session.request(
    METHODS.tasksCancel,
    { taskId },
    Math.min(2000, context.plan.requestTimeoutMs),
    context.owner,
    wire.capabilities,
  );
}
