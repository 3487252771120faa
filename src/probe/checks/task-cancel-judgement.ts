import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { since } from '../probe-types.js';
import type { TasksObservation } from '../../live/probe-observations.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { TERMINAL_TASK_STATUSES } from '../../protocol/task-status.js';
import { objectAt, taskOf } from './task-creation.js';
import { type Answer, describeError, type Polled, type TaskRead } from './task-polling-judgement.js';

const message = messagesOf(tasks);

/** The tasks check's observation, filled in as its steps run. */
export type TasksObserved = { -readonly [Fact in keyof TasksObservation]: TasksObservation[Fact] };

/**
 * What tasks/cancel answered, as the plan follows it up: unanswered, refused, or (where it moves the task to
 * cancelled before answering) the status it answered, or (where it acknowledges) an object or not.
 */
export type CancelReply = 'unanswered' | 'refused' | 'cancelled' | 'not-cancelled' | 'acknowledged' | 'not-object';

export function cancelReplyOf(answer: Answer, cancelIsTerminal: boolean): CancelReply {
  if ('unanswered' in answer) return 'unanswered';
  const received = answer.received;
  if (objectAt(received.message, ['error']) !== undefined) return 'refused';
  if (cancelIsTerminal) return taskOf(objectAt(received.message, ['result']))?.status === 'cancelled' ? 'cancelled' : 'not-cancelled';
  return objectAt(received.message, ['result']) === undefined ? 'not-object' : 'acknowledged';
}

/** What cancelling the second task recorded: tasks/cancel's answer and what the plan read after it. */
export interface CancelRun {
  readonly taskId: string;
  /** The request that created the task. */
  readonly second: { readonly id: number; readonly sentAt: number };
  /** How long after that request tasks/cancel was sent, and how long the task was watched after it (ms). */
  readonly cancelledAfterMs: number;
  readonly watchMs: number;
  /** The revision moves the task to cancelled before tasks/cancel answers (else tasks/cancel acknowledges). */
  readonly cancelIsTerminal: boolean;
  /** The revision refuses tasks/cancel of a terminal task with -32602. */
  readonly terminalCancelRefused: boolean;
  readonly answer: Answer;
  /** Where tasks/cancel was refused: tasks/get of the task then. */
  readonly statusNow?: TaskRead;
  /** The task's tasks/get after tasks/cancel answered. */
  readonly watched?: Polled;
  /** The judged progress of the request that created it (see `judgeTaskProgress`). */
  readonly progressProblems?: readonly CheckMessage[];
  /** The answer to a second tasks/cancel of the cancelled task. */
  readonly again?: Answer;
}

export interface Cancelled {
  readonly problems: CheckMessage[];
  readonly details: string[];
  readonly observed: TasksObserved;
  /** How the cancellation went, for the check's summary (when nothing failed). */
  readonly summary?: CheckMessage;
  /** Why the cancellation showed nothing, no fault of the server's. */
  readonly unplayed?: CheckMessage;
}

/** The second task was not created, no fault of the server's: the cancellation shows nothing. Pure. */
export function secondNotCreated(unplayed: CheckMessage | undefined): Cancelled {
  return { problems: [], details: [], observed: {}, unplayed: message('secondNotCreated', { why: String(unplayed?.text) }) };
}

/** Judges the cancellation of the second task as the revision says. Pure. */
export function judgeTaskCancel(run: CancelRun): Cancelled {
  const { taskId, second, answer } = run;
  if ('unanswered' in answer)
    return { problems: [message('cancelUnanswered', { taskId, why: answer.unanswered })], details: [], observed: {} };
  const received = answer.received;
  const at = `${since(second, received)} ms after request ${second.id}`;
  const details = [
    `tasks/cancel of task ${taskId} sent ${run.cancelledAfterMs} ms after request ${second.id} (no notifications/cancelled)`,
  ];
  const error = objectAt(received.message, ['error']);
  const observed: TasksObserved = {};
  const watchMs = run.watchMs;
  const watched = run.watched;
  if (error !== undefined) {
    const now = run.statusNow;
    const status = now !== undefined && 'task' in now ? now.task.status : undefined;
    if (status !== undefined && status !== 'working' && status !== 'input_required' && status !== 'cancelled')
      return { problems: [], details, observed, unplayed: message('alreadyEnded', { status, error: describeError(error) }) };
    observed.cancelStatus = 'refused';
    return {
      problems: [message('cancelRefused', { status: status ?? 'running', taskId, error: describeError(error), at })],
      details,
      observed,
    };
  }
  if (run.cancelIsTerminal) {
    const answered = taskOf(objectAt(received.message, ['result']));
    observed.cancelStatus = answered?.status ?? 'none';
    if (answered?.status !== 'cancelled') {
      if (watched?.last !== undefined) observed.afterCancel = watched.last.status;
      return {
        problems: [
          message('cancelNotTerminal', { taskId, answer: answered === undefined ? 'without a status' : `status ${answered.status}`, at }),
        ],
        details: [...details, `afterwards ${watched?.text}`],
        observed,
      };
    }
    details.push(`tasks/cancel answered cancelled ${at}; watched ${watchMs} ms: ${watched?.text}`);
    observed.afterCancel = watched?.last?.status ?? 'unread';
    if (watched?.first !== undefined) observed.firstAfterCancel = watched.first;
    const problems = watched?.problem === undefined ? [] : [watched.problem];
    problems.push(...(run.progressProblems ?? []));
    const again = run.again ?? { unanswered: 'not asked' };
    const repeatError = 'unanswered' in again ? undefined : objectAt(again.received.message, ['error']);
    if ('unanswered' in again) problems.push(message('terminalCancelUnanswered', { taskId, why: again.unanswered }));
    else if (run.terminalCancelRefused && repeatError?.['code'] !== ERROR_CODES.invalidParams)
      problems.push(
        message('terminalCancelAnswered', { taskId, answer: repeatError === undefined ? 'a result' : describeError(repeatError) }),
      );
    if (repeatError !== undefined && typeof repeatError['code'] === 'number') observed.cancelTerminalCode = repeatError['code'];
    details.push(
      `tasks/cancel of the cancelled task again: ${'unanswered' in again ? 'no answer' : repeatError === undefined ? 'a result' : describeError(repeatError)}`,
    );
    return { problems, details, observed, summary: message('cancelHeld', { at, watchMs }) };
  }
  // An acknowledgement; the task reaches a terminal status in time (cancelled, or completed if the work had finished).
  observed.cancelStatus = 'acknowledged';
  if (objectAt(received.message, ['result']) === undefined)
    return { problems: [message('cancelAckNotObject', { taskId, at })], details, observed };
  details.push(`tasks/cancel acknowledged ${at}; watched ${watchMs} ms: ${watched?.text}`);
  if (watched?.first !== undefined) observed.firstAfterCancel = watched.first;
  if (watched?.last !== undefined) observed.afterCancel = watched.last.status;
  const problems = watched?.problem === undefined ? [] : [watched.problem];
  problems.push(...(run.progressProblems ?? []));
  const last = watched?.last?.status;
  if (problems.length === 0 && (last === undefined || !TERMINAL_TASK_STATUSES.has(last)))
    return { problems, details, observed, unplayed: message('cancelStillRunning', { at, status: last ?? 'unread', watchMs }) };
  return { problems, details, observed, summary: message('cancelAcknowledged', { at, status: String(last) }) };
}
