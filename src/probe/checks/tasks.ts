import { tasks } from '../check-declarations/tasks.js';
import { factsOf } from '../../spec/revision-facts.js';
import { plural } from '../../text/plural.js';
import type { SpecVersion } from '../../spec/revisions.js';
import type { Call } from '../connection.js';
import type { ToolChoice } from '../probe-plan.js';
import { type CheckOutcome, judged, outcome, type ProbeCheck, type ProbeContext, RESERVE_MS, since } from '../probe-types.js';
import { isProgress, type Received } from '../received.js';
import type { ProbeSession } from '../session.js';
import { pause, unanswered } from './observe.js';
import type { CheckMessage } from '../check-message.js';
import { judgeTaskCreation, objectAt, type TaskCreation, type TaskState, taskOf } from './task-creation.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { TERMINAL_TASK_STATUSES } from '../../protocol/task-status.js';
import { METHODS } from '../../protocol/methods.js';
import type { DisconnectObservation, TasksObservation } from '../../live/probe-observations.js';

/** The tasks check's observation, filled in as its steps run. */
type TasksObserved = { -readonly [Fact in keyof TasksObservation]: TasksObservation[Fact] };

/** The extension that carries tasks where they are not in the core protocol. */
const EXTENSION = 'io.modelcontextprotocol/tasks';
/** The time-to-live the probe asks for where the client asks (params.task.ttl). */
const TTL_MS = 60_000;
/** How often the probe polls a task that suggests no interval, and the least it waits between two polls whatever it suggests. */
const DEFAULT_POLL_MS = 200;
const MIN_POLL_MS = 50;

/**
 * The ordinary request checks (progress, cancellation, client timeouts) do not call a tool that requires task
 * augmentation: a plain tools/call of it is refused, which says nothing of its arguments or of the server. The
 * tasks check plays it.
 */
export function taskRequired(context: ProbeContext): CheckOutcome<never> | undefined {
  const tool = context.plan.longTool;
  if (tool?.taskSupport !== 'required') return undefined;
  return outcome(
    'inconclusive',
    `${tool.name} requires task augmentation (execution.taskSupport: required): a plain tools/call of it is refused, ` +
      'so this check does not call it; the tasks check plays it as a task',
  );
}

/** On a revision whose server decides which requests become tasks, whether this server declares that it makes them. */
export function serverDecidesTasks(revision: SpecVersion, capabilities: Record<string, unknown> | undefined): boolean {
  if (factsOf(revision)['task-augmentation'].value !== 'server-directed') return false;
  return objectAt(capabilities, ['extensions', EXTENSION]) !== undefined;
}

/** The probe's wire for tasks on this revision, from the table of facts. */
interface TaskWire {
  readonly serverDirected: boolean;
  readonly tasksResult: boolean;
  readonly progressForTaskLifetime: boolean;
  readonly cancelIsTerminal: boolean;
  readonly terminalCancelRefused: boolean;
  readonly anyClientFindsIt: boolean;
  /** The client capabilities each task request declares (per-request, where the revision carries them so). */
  readonly capabilities: Record<string, unknown>;
}

function wireOf(context: ProbeContext): TaskWire {
  const facts = factsOf(context.revision);
  const serverDirected = facts['task-augmentation'].value === 'server-directed';
  return {
    serverDirected,
    tasksResult: facts['task-result'].value === 'tasks-result',
    progressForTaskLifetime: facts['task-progress'].value === 'task-lifetime',
    cancelIsTerminal: facts['task-cancel'].value === 'terminal-before-answer',
    terminalCancelRefused: facts['task-cancel-terminal'].value === 'invalid-params',
    anyClientFindsIt: facts['task-lookup'].value === 'any-client',
    capabilities: serverDirected ? { extensions: { [EXTENSION]: {} } } : {},
  };
}

/**
 * Tasks on the wire, with the revision's protocol: a task-augmented tools/call returns a task, tasks/get reaches a
 * terminal status (polled at the server's interval) and the result can be had; a second task cancelled with
 * tasks/cancel (never notifications/cancelled) ends as the revision says; over Streamable HTTP a fresh connection
 * still finds the first task.
 */
export const tasksOnTheWire: ProbeCheck<'tasks'> = {
  ...tasks,
  async run(context) {
    const wire = wireOf(context);
    const declared = advertises(context, wire);
    const tool = context.plan.taskTool;
    if (tool === undefined)
      return outcome(
        'inconclusive',
        `no tool to run as a task: ${context.plan.noTaskTool ?? 'none was chosen'}${declared.ok ? '' : `; ${declared.why}`}`,
      );
    if (!declared.ok)
      return outcome(
        'inconclusive',
        `${declared.why}, so the probe sends it no task-augmented request` +
          (tool.taskSupport === 'required' ? `, though ${tool.name} says execution.taskSupport: required` : ''),
      );
    const problems: string[] = [];
    const support = wire.serverDirected ? 'the server decides per request' : `execution.taskSupport: ${tool.taskSupport}`;
    const details: string[] = [`runs ${tool.name} as a task (${support}); ${declared.why}`];
    const observed: TasksObserved = {};

    // (a) A task, polled to a terminal status, its result fetched.
    const first = await createTask(context, wire, tool);
    details.push(...first.details);
    if (first.problem !== undefined) return judged('fail', first.problem, details, undefined, { created: false });
    if (first.task === undefined)
      return first.unplayed === undefined
        ? outcome('inconclusive', 'no task was created', details, undefined, { created: false })
        : judged('inconclusive', first.unplayed, details, undefined, { created: false });
    observed.created = true;
    const limit = Math.max(0, Math.min(context.plan.longRunMs, context.budgetLeft() - RESERVE_MS));
    const run = await poll(context, wire, first.call, first.task, context.clock() + limit, true);
    details.push(run.text);
    observed.polls = run.polls;
    if (run.problem !== undefined) problems.push(run.problem);
    const terminal = run.last?.status;
    if (terminal !== undefined && TERMINAL_TASK_STATUSES.has(terminal)) observed.terminal = terminal;
    const runMs = run.terminalAt === undefined ? undefined : Math.round(run.terminalAt - first.call.sentAt);
    if (run.problem === undefined && (terminal === undefined || !TERMINAL_TASK_STATUSES.has(terminal))) {
      await cancelQuietly(context, wire, first.task.taskId);
      return outcome(
        'inconclusive',
        `task ${first.task.taskId} of ${tool.name} was still ${terminal ?? 'unread'} ${limit} ms after the request, the probe's limit ` +
          'for one run (two fifths of --max-time, at most 65 s): its end was not seen; raise --max-time or give it shorter work with --arguments',
        details,
        undefined,
        observed,
      );
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

    if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), ...details], undefined, observed);
    if (cancel.unplayed !== undefined)
      return outcome('inconclusive', `task ${first.task.taskId} ended ${terminal}; ${cancel.unplayed}`, details, undefined, observed);
    return outcome(
      'pass',
      `task ${first.task.taskId} ended ${terminal} ${runMs} ms after the request (${run.polls} tasks/get); ${cancel.summary}; ${survival.summary}`,
      details,
      undefined,
      observed,
    );
  },
};

/** Whether the server declares tasks where the revision has it declare them, in words. */
function advertises(context: ProbeContext, wire: TaskWire): { ok: boolean; why: string } {
  const capabilities = context.session.serverCapabilities ?? {};
  if (wire.serverDirected) {
    const extensions = objectAt(capabilities, ['extensions']);
    return objectAt(extensions, [EXTENSION]) === undefined
      ? { ok: false, why: `the server does not list ${EXTENSION} in capabilities.extensions of its server/discover result` }
      : { ok: true, why: `the server lists ${EXTENSION} in capabilities.extensions` };
  }
  return objectAt(capabilities, ['tasks', 'requests', 'tools', 'call']) === undefined
    ? { ok: false, why: 'the server does not declare capabilities.tasks.requests.tools.call in its initialize result' }
    : { ok: true, why: 'the server declares capabilities.tasks.requests.tools.call' };
}

interface Created {
  readonly call: Call;
  readonly response?: Received;
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
function creationOf(judged: TaskCreation): Pick<Created, 'task' | 'problem' | 'unplayed' | 'details'> {
  if ('task' in judged) return { task: judged.task, details: [judged.detail] };
  if ('problem' in judged) return { problem: judged.problem, details: [] };
  return { unplayed: judged.unplayed, details: [] };
}

interface Polled {
  /** The first status read, and the last. */
  readonly first?: string;
  readonly last?: TaskState;
  readonly polls: number;
  /** When the first terminal status was read (probe clock). */
  readonly terminalAt?: number;
  readonly problem?: string;
  readonly text: string;
}

/**
 * Polls tasks/get at the server's interval until a terminal status (`untilTerminal`) or `deadline` (probe clock);
 * a terminal status that changes is a problem whenever it is seen.
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
  const seen: string[] = [];
  let last: TaskState | undefined;
  let terminalAt: number | undefined;
  let polls = 0;
  let interval = seed.pollMs;
  const text = () => `tasks/get ${plural(polls, 'time')}: ${seen.join(' → ') || 'nothing read'}`;
  const first = () => (seen[0] === undefined ? {} : { first: seen[0].split(' ')[0]! });
  for (;;) {
    const wait = Math.max(MIN_POLL_MS, interval ?? DEFAULT_POLL_MS);
    if (polls > 0 && context.clock() + wait > deadline) break;
    if (polls > 0) await pause(context, wait);
    polls++;
    const got = await getTask(context, wire, context.session, seed.taskId, deadline);
    if ('failed' in got) return { ...first(), ...(last === undefined ? {} : { last }), polls, problem: got.failed, text: text() };
    const state = got.task;
    const at = since(creation, got.received);
    if (seen.at(-1)?.startsWith(`${state.status} `) !== true) seen.push(`${state.status} at ${at} ms`);
    const before = last?.status;
    if (before !== undefined && TERMINAL_TASK_STATUSES.has(before) && state.status !== before)
      return {
        ...first(),
        last: state,
        polls,
        ...(terminalAt === undefined ? {} : { terminalAt }),
        problem: `task ${seed.taskId} went from ${before} to ${state.status} (tasks/get ${at} ms after request ${creation.id}): terminal statuses never change`,
        text: text(),
      };
    if (expected !== undefined && state.status !== expected)
      return {
        ...first(),
        last: state,
        polls,
        problem: `task ${seed.taskId} is ${state.status} (tasks/get ${at} ms after request ${creation.id}), after tasks/cancel had answered ${expected}`,
        text: text(),
      };
    last = state;
    if (TERMINAL_TASK_STATUSES.has(state.status)) {
      terminalAt ??= got.received.at;
      if (untilTerminal) break;
    }
    interval = state.pollMs ?? interval;
  }
  return { ...first(), ...(last === undefined ? {} : { last }), polls, ...(terminalAt === undefined ? {} : { terminalAt }), text: text() };
}

/** One tasks/get: the task, or why it could not be read (in words, and by kind: only an answer says the task is gone). */
async function getTask(
  context: ProbeContext,
  wire: TaskWire,
  session: ProbeSession,
  taskId: string,
  deadline = Number.POSITIVE_INFINITY,
): Promise<{ task: TaskState; received: Received } | { failed: string; because: 'unanswered' | 'refused' | 'no-status' }> {
  const timeout = Math.max(1, Math.min(context.plan.requestTimeoutMs, deadline - context.clock() + context.plan.requestTimeoutMs / 2));
  const call = await session.request(METHODS.tasksGet, { taskId }, timeout, context.owner, wire.capabilities);
  const received = call.inbox.response;
  if (received === undefined)
    return { failed: `tasks/get of task ${taskId} was not answered: ${unanswered(call, timeout)}`, because: 'unanswered' };
  const error = objectAt(received.message, ['error']);
  if (error !== undefined) return { failed: `tasks/get of task ${taskId} was refused with ${describeError(error)}`, because: 'refused' };
  const task = taskOf(objectAt(received.message, ['result']));
  if (task === undefined || task.taskId !== taskId)
    return {
      failed: `tasks/get of task ${taskId} answered without its status: ${JSON.stringify(received.message['result']).slice(0, 200)}`,
      because: 'no-status',
    };
  return { task, received };
}

/** The result of a terminal task: tasks/result, or inline in tasks/get, as the revision has it. */
async function fetchResult(
  context: ProbeContext,
  wire: TaskWire,
  creation: Call,
  taskId: string,
  last: TaskState,
): Promise<{ problem?: string; text: string }> {
  if (!wire.tasksResult) {
    if (last.status === 'completed' && objectAt(last, ['result']) === undefined)
      return { problem: `tasks/get of the completed task ${taskId} carries no result`, text: 'no inline result' };
    if (last.status === 'failed' && objectAt(last, ['error']) === undefined)
      return { problem: `tasks/get of the failed task ${taskId} carries no error`, text: 'no inline error' };
    return { text: `tasks/get of the ${last.status} task carries its ${last.status === 'failed' ? 'error' : 'result'} inline` };
  }
  const call = await context.session.request(
    METHODS.tasksResult,
    { taskId },
    context.plan.requestTimeoutMs,
    context.owner,
    wire.capabilities,
  );
  const received = call.inbox.response;
  if (received === undefined)
    return {
      problem: `tasks/result of the ${last.status} task ${taskId} was not answered: ${unanswered(call, context.plan.requestTimeoutMs)}`,
      text: '',
    };
  const error = objectAt(received.message, ['error']);
  const at = `${since(creation, received)} ms after request ${creation.id}`;
  if (last.status === 'completed') {
    if (error !== undefined)
      return { problem: `tasks/result of the completed task ${taskId} was refused with ${describeError(error)} (${at})`, text: '' };
    const content = objectAt(received.message, ['result'])?.['content'];
    if (!Array.isArray(content))
      return { problem: `tasks/result of the completed task ${taskId} is not a CallToolResult (no content array, ${at})`, text: '' };
    return { text: `tasks/result: a CallToolResult with ${plural(content.length, 'content item')}, ${at}` };
  }
  return { text: `tasks/result of the ${last.status} task: ${error === undefined ? 'a result' : describeError(error)}, ${at}` };
}

/** Progress of a task-creating request that came after `cutoff` (plus the in-flight allowance): none may. */
async function progressAfter(
  context: ProbeContext,
  call: Call,
  cutoff: number,
  wire: TaskWire,
  because: string,
): Promise<{ problems: string[]; text: string }> {
  const times: number[] = [];
  // The queue is read without waiting: what has already arrived.
  for (let received = await call.inbox.next(isProgress, 0); received !== undefined; received = await call.inbox.next(isProgress, 0))
    times.push(received.at);
  const allowance = context.session.inFlightMs;
  const late = times.filter((at) => at > cutoff + allowance);
  const problems = call.inbox.notIncreasing.map(
    ({ value, previous }) => `progress ${value} follows ${previous} for request ${call.id}: not strictly increasing`,
  );
  const after = wire.progressForTaskLifetime ? because : 'the create result answered the request';
  if (late.length > 0)
    problems.push(
      `${plural(late.length, 'progress notification')} for request ${call.id} after ${after} ` +
        `(first ${Math.round(late[0]! - call.sentAt)} ms after the request): ` +
        (wire.progressForTaskLifetime ? 'progress stops when the task is terminal' : 'progress is not sent for tasks on this revision'),
    );
  return {
    problems,
    text:
      `${plural(call.inbox.progressCount, 'progress notification')} for request ${call.id}` +
      (wire.progressForTaskLifetime ? ' (its token lives as long as the task)' : '') +
      `, ${late.length} after ${after}`,
  };
}

interface Cancelled {
  readonly problems: string[];
  readonly details: string[];
  readonly observed: TasksObserved;
  readonly summary: string;
  readonly unplayed?: string;
}

/** A second task, cancelled with tasks/cancel and watched, judged as the revision says. */
async function cancelTask(context: ProbeContext, wire: TaskWire, tool: ToolChoice, runMs: number | undefined): Promise<Cancelled> {
  const second = await createTask(context, wire, tool);
  const details = second.details;
  if (second.problem !== undefined) return { problems: [second.problem.text], details, observed: {}, summary: '' };
  if (second.task === undefined)
    return { problems: [], details, observed: {}, summary: '', unplayed: `the second task was not created: ${second.unplayed?.text}` };
  const taskId = second.task.taskId;
  const cancel = await context.session.request(
    METHODS.tasksCancel,
    { taskId },
    context.plan.requestTimeoutMs,
    context.owner,
    wire.capabilities,
  );
  const cancelledAfter = Math.round(cancel.sentAt - second.call.sentAt);
  const received = cancel.inbox.response;
  if (received === undefined)
    return {
      problems: [`tasks/cancel of task ${taskId} was not answered: ${unanswered(cancel, context.plan.requestTimeoutMs)}`],
      details,
      observed: {},
      summary: '',
    };
  const at = `${since(second.call, received)} ms after request ${second.call.id}`;
  details.push(`tasks/cancel of task ${taskId} sent ${cancelledAfter} ms after request ${second.call.id} (no notifications/cancelled)`);
  const error = objectAt(received.message, ['error']);
  const observed: TasksObserved = {};
  // How long to watch: until the uncancelled run would have ended, plus the grace period, within the probe's limits.
  const rest = (runMs ?? context.plan.longRunMs / 2) - cancelledAfter;
  const watchMs = Math.max(
    0,
    Math.min(Math.max(context.plan.graceMs, rest + context.plan.graceMs), context.plan.longRunMs, context.budgetLeft() - RESERVE_MS),
  );
  if (error !== undefined) {
    const now = await getTask(context, wire, context.session, taskId);
    if ('task' in now && now.task.status !== 'working' && now.task.status !== 'input_required' && now.task.status !== 'cancelled')
      return {
        problems: [],
        details,
        observed,
        summary: '',
        unplayed: `the second task was already ${now.task.status} when tasks/cancel came (${describeError(error)}): give it longer work with --arguments`,
      };
    observed.cancelStatus = 'refused';
    return {
      problems: [
        `tasks/cancel of the ${'task' in now ? now.task.status : 'running'} task ${taskId} was refused with ${describeError(error)} (${at})`,
      ],
      details,
      observed,
      summary: '',
    };
  }
  if (wire.cancelIsTerminal) {
    const answered = taskOf(objectAt(received.message, ['result']));
    observed.cancelStatus = answered?.status ?? 'none';
    if (answered?.status !== 'cancelled') {
      const watched = await poll(context, wire, second.call, second.task, context.clock() + watchMs, true);
      if (watched.last !== undefined) observed.afterCancel = watched.last.status;
      return {
        problems: [
          `tasks/cancel of task ${taskId} answered ${answered === undefined ? 'without a status' : `status ${answered.status}`} (${at}): ` +
            'tasks/cancel moves the task to cancelled before it answers',
        ],
        details: [...details, `afterwards ${watched.text}`],
        observed,
        summary: '',
      };
    }
    const watched = await poll(context, wire, second.call, second.task, context.clock() + watchMs, false, 'cancelled');
    details.push(`tasks/cancel answered cancelled ${at}; watched ${watchMs} ms: ${watched.text}`);
    observed.afterCancel = watched.last?.status ?? 'unread';
    if (watched.first !== undefined) observed.firstAfterCancel = watched.first;
    const problems = watched.problem === undefined ? [] : [watched.problem];
    problems.push(...(await progressAfter(context, second.call, received.at, wire, `task ${taskId} was cancelled`)).problems);
    const again = await context.session.request(
      METHODS.tasksCancel,
      { taskId },
      context.plan.requestTimeoutMs,
      context.owner,
      wire.capabilities,
    );
    const repeat = again.inbox.response;
    const repeatError = repeat === undefined ? undefined : objectAt(repeat.message, ['error']);
    if (repeat === undefined)
      problems.push(`tasks/cancel of the cancelled task ${taskId} was not answered: ${unanswered(again, context.plan.requestTimeoutMs)}`);
    else if (wire.terminalCancelRefused && repeatError?.['code'] !== ERROR_CODES.invalidParams)
      problems.push(
        `tasks/cancel of the cancelled (terminal) task ${taskId} was answered with ` +
          `${repeatError === undefined ? 'a result' : describeError(repeatError)}, not -32602 (Invalid params)`,
      );
    if (repeatError !== undefined && typeof repeatError['code'] === 'number') observed.cancelTerminalCode = repeatError['code'];
    details.push(
      `tasks/cancel of the cancelled task again: ${repeat === undefined ? 'no answer' : repeatError === undefined ? 'a result' : describeError(repeatError)}`,
    );
    return {
      problems,
      details,
      observed,
      summary: `tasks/cancel answered cancelled ${at} and the task stayed cancelled for ${watchMs} ms; a second tasks/cancel was refused with -32602`,
    };
  }
  // An acknowledgement; the task reaches a terminal status in time (cancelled, or completed if the work had finished).
  const ack = objectAt(received.message, ['result']);
  observed.cancelStatus = 'acknowledged';
  if (ack === undefined)
    return {
      problems: [`tasks/cancel of task ${taskId} answered with a result that is not an object (${at})`],
      details,
      observed,
      summary: '',
    };
  const watched = await poll(context, wire, second.call, second.task, context.clock() + watchMs, false);
  details.push(`tasks/cancel acknowledged ${at}; watched ${watchMs} ms: ${watched.text}`);
  if (watched.first !== undefined) observed.firstAfterCancel = watched.first;
  if (watched.last !== undefined) observed.afterCancel = watched.last.status;
  const problems = watched.problem === undefined ? [] : [watched.problem];
  problems.push(...(await progressAfter(context, second.call, second.response?.at ?? received.at, wire, '')).problems);
  if (problems.length === 0 && (watched.last === undefined || !TERMINAL_TASK_STATUSES.has(watched.last.status)))
    return {
      problems,
      details,
      observed,
      summary: '',
      unplayed:
        `tasks/cancel of the second task was acknowledged ${at}, but it was still ${watched.last?.status ?? 'unread'} after ${watchMs} ms ` +
        '(cancellation is eventually consistent): raise --max-time to watch longer',
    };
  return {
    problems,
    details,
    observed,
    summary: `tasks/cancel was acknowledged ${at} and the task then reached ${watched.last?.status} (eventually consistent)`,
  };
}

/** Whether a fresh connection finds the first task: over Streamable HTTP only. */
async function afterDisconnect(
  context: ProbeContext,
  wire: TaskWire,
  taskId: string,
  creation: Call,
): Promise<{ status: DisconnectObservation; survives?: boolean; problem?: string; summary: string; text: string }> {
  const transport = context.session.connection.transport;
  if (transport === 'stdio' || context.reconnect === undefined) {
    const why = 'over stdio a new connection is a new process, a new server: whether a task outlives its connection is not observable';
    return { status: 'not-observable', summary: why, text: why };
  }
  const fresh = await context.reconnect();
  const how = wire.serverDirected ? 'from a fresh client (its own server/discover)' : 'from a new session (its own initialize)';
  if ('failed' in fresh) {
    const why = `no connection ${how} could be opened (${fresh.failed}): whether the task outlives its connection was not seen`;
    return { status: 'inconclusive', summary: why, text: why };
  }
  try {
    const got = await getTask(context, wire, fresh.session, taskId);
    if ('task' in got) {
      const text = `tasks/get ${how} found task ${taskId} (${got.task.status}) ${since(creation, got.received)} ms after request ${creation.id}`;
      return { status: 'seen', survives: true, summary: text, text };
    }
    const text = `tasks/get ${how} did not find task ${taskId}: ${got.failed}`;
    // Only an answer says the task is gone; silence says nothing of it.
    if (got.because === 'unanswered')
      return { status: 'inconclusive', summary: `${text}: whether the task outlives its connection was not seen`, text };
    if (wire.anyClientFindsIt)
      return {
        status: 'seen',
        survives: false,
        problem: `${text}: the task did not outlive the connection that created it`,
        summary: text,
        text,
      };
    const allowed = `${text} (allowed on this revision, where a server may scope tasks to the session that created them)`;
    return { status: 'seen', survives: false, summary: allowed, text: allowed };
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

function describeError(error: Record<string, unknown>): string {
  return `error ${String(error['code'])}${typeof error['message'] === 'string' ? ` (${error['message'].slice(0, 120)})` : ''}`;
}
