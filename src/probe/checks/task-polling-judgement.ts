import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { since } from '../probe-types.js';
import type { Received } from '../received.js';
import { plural } from '../../text/plural.js';
import { TERMINAL_TASK_STATUSES } from '../../protocol/task-status.js';
import { objectAt, type TaskState, taskOf } from './task-creation.js';

const message = messagesOf(tasks);

/** A request's answer as recorded: the response, or why none came (the transport's reason, or the time waited). */
export type Answer = { readonly received: Received } | { readonly unanswered: string };

/** One tasks/get as judged: the task, or why it could not be read (by kind: only an answer says the task is gone). */
export type TaskRead =
  | { readonly task: TaskState; readonly received: Received }
  | { readonly failed: CheckMessage; readonly because: 'unanswered' | 'refused' | 'no-status' };

/** Judges the answer to a tasks/get of `taskId`. Pure. */
export function judgeTaskRead(taskId: string, answer: Answer): TaskRead {
  if ('unanswered' in answer) return { failed: message('getUnanswered', { taskId, why: answer.unanswered }), because: 'unanswered' };
  const received = answer.received;
  const error = objectAt(received.message, ['error']);
  if (error !== undefined) return { failed: message('getRefused', { taskId, error: describeError(error) }), because: 'refused' };
  const task = taskOf(objectAt(received.message, ['result']));
  if (task === undefined || task.taskId !== taskId)
    return {
      failed: message('getNoStatus', { taskId, result: JSON.stringify(received.message['result']).slice(0, 200) }),
      because: 'no-status',
    };
  return { task, received };
}

/** What polling a task recorded: the task as created, its tasks/get in order, and what the polling waits for. */
export interface PollRun {
  readonly seed: TaskState;
  readonly creation: { readonly id: number; readonly sentAt: number };
  readonly reads: readonly TaskRead[];
  /** Polling stops at the first terminal status. */
  readonly untilTerminal: boolean;
  /** The status every read must give (a task tasks/cancel said was cancelled). */
  readonly expected?: string;
}

export interface Polled {
  /** The first status read, and the last. */
  readonly first?: string;
  readonly last?: TaskState;
  readonly polls: number;
  /** When the first terminal status was read (probe clock). */
  readonly terminalAt?: number;
  readonly problem?: CheckMessage;
  readonly text: string;
  /** Nothing more is to be read: a problem, or the terminal status polled for. */
  readonly done: boolean;
  /** The interval the server last suggested (ms), for the next poll. */
  readonly intervalMs?: number;
}

/** Judges a task's tasks/get so far: a terminal status that changes, or one other than `expected`, is a problem. Pure. */
export function judgePolls(run: PollRun): Polled {
  const { seed, creation } = run;
  const seen: string[] = [];
  let last: TaskState | undefined;
  let terminalAt: number | undefined;
  let polls = 0;
  let interval = seed.pollMs;
  const text = () => `tasks/get ${plural(polls, 'time')}: ${seen.join(' → ') || 'nothing read'}`;
  const first = () => (seen[0] === undefined ? {} : { first: seen[0].split(' ')[0]! });
  const lastOf = () => (last === undefined ? {} : { last });
  for (const got of run.reads) {
    polls++;
    if ('failed' in got) return { ...first(), ...lastOf(), polls, problem: got.failed, text: text(), done: true };
    const state = got.task;
    const at = since(creation, got.received);
    if (seen.at(-1)?.startsWith(`${state.status} `) !== true) seen.push(`${state.status} at ${at} ms`);
    const before = last?.status;
    const where = { taskId: seed.taskId, atMs: at, request: creation.id };
    if (before !== undefined && TERMINAL_TASK_STATUSES.has(before) && state.status !== before)
      return {
        ...first(),
        last: state,
        polls,
        ...(terminalAt === undefined ? {} : { terminalAt }),
        problem: message('terminalChanged', { ...where, before, after: state.status }),
        text: text(),
        done: true,
      };
    if (run.expected !== undefined && state.status !== run.expected)
      return {
        ...first(),
        last: state,
        polls,
        problem: message('notCancelledAfterCancel', { ...where, status: state.status, expected: run.expected }),
        text: text(),
        done: true,
      };
    last = state;
    if (TERMINAL_TASK_STATUSES.has(state.status)) {
      terminalAt ??= got.received.at;
      if (run.untilTerminal)
        return {
          ...first(),
          last,
          polls,
          terminalAt,
          text: text(),
          done: true,
          ...(interval === undefined ? {} : { intervalMs: interval }),
        };
    }
    interval = state.pollMs ?? interval;
  }
  return {
    ...first(),
    ...lastOf(),
    polls,
    ...(terminalAt === undefined ? {} : { terminalAt }),
    text: text(),
    done: false,
    ...(interval === undefined ? {} : { intervalMs: interval }),
  };
}

/** What fetching a terminal task's result recorded: tasks/result's answer, or none where the result is inline. */
export interface ResultRun {
  readonly taskId: string;
  readonly last: TaskState;
  readonly creation: { readonly id: number; readonly sentAt: number };
  /** The revision has tasks/result (else the result is inline in tasks/get). */
  readonly tasksResult: boolean;
  readonly answer?: Answer;
}

/** Judges the result of a terminal task: tasks/result, or inline in tasks/get, as the revision has it. Pure. */
export function judgeTaskResult(run: ResultRun): { problem?: CheckMessage; text: string } {
  const { taskId, last, creation } = run;
  if (!run.tasksResult) {
    if (last.status === 'completed' && objectAt(last, ['result']) === undefined)
      return { problem: message('noInlineResult', { taskId }), text: 'no inline result' };
    if (last.status === 'failed' && objectAt(last, ['error']) === undefined)
      return { problem: message('noInlineError', { taskId }), text: 'no inline error' };
    return { text: `tasks/get of the ${last.status} task carries its ${last.status === 'failed' ? 'error' : 'result'} inline` };
  }
  const answer = run.answer ?? { unanswered: 'not asked' };
  if ('unanswered' in answer)
    return { problem: message('resultUnanswered', { status: last.status, taskId, why: answer.unanswered }), text: '' };
  const received = answer.received;
  const error = objectAt(received.message, ['error']);
  const at = `${since(creation, received)} ms after request ${creation.id}`;
  if (last.status === 'completed') {
    if (error !== undefined) return { problem: message('resultRefused', { taskId, error: describeError(error), at }), text: '' };
    const content = objectAt(received.message, ['result'])?.['content'];
    if (!Array.isArray(content)) return { problem: message('resultNotCallToolResult', { taskId, at }), text: '' };
    return { text: `tasks/result: a CallToolResult with ${plural(content.length, 'content item')}, ${at}` };
  }
  return { text: `tasks/result of the ${last.status} task: ${error === undefined ? 'a result' : describeError(error)}, ${at}` };
}

/** A JSON-RPC error in words: its code and the start of its message. */
export function describeError(error: Record<string, unknown>): string {
  return `error ${String(error['code'])}${typeof error['message'] === 'string' ? ` (${error['message'].slice(0, 120)})` : ''}`;
}
