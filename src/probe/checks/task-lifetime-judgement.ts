import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { since } from '../probe-types.js';
import { plural } from '../../text/plural.js';
import type { DisconnectObservation } from '../../live/probe-observations.js';
import type { TaskRead } from './task-polling-judgement.js';

const message = messagesOf(tasks);

/** The progress a task-creating request recorded, and from when none may come. */
export interface TaskProgressRun {
  readonly call: { readonly id: number; readonly sentAt: number };
  /** When each progress notification for it arrived (probe clock). */
  readonly times: readonly number[];
  readonly progressCount: number;
  readonly notIncreasing: readonly { readonly value: string; readonly previous: string }[];
  /** No progress may come after this (probe clock), plus the in-flight allowance. */
  readonly cutoff: number;
  readonly allowanceMs: number;
  /** The revision keeps the progress token alive as long as the task (else progress stops with the create result). */
  readonly progressForTaskLifetime: boolean;
  /** Why the task's progress stops where its token lives as long as the task ("task t1 was completed"). */
  readonly because: string;
}

/** Judges a task-creating request's progress: strictly increasing, and none after the cutoff. Pure. */
export function judgeTaskProgress(run: TaskProgressRun): { problems: CheckMessage[]; text: string } {
  const { call } = run;
  const late = run.times.filter((at) => at > run.cutoff + run.allowanceMs);
  const problems = run.notIncreasing.map(({ value, previous }) => message('progressNotIncreasing', { value, previous, request: call.id }));
  const after = run.progressForTaskLifetime ? run.because : 'the create result answered the request';
  if (late.length > 0)
    problems.push(
      message('lateProgress', {
        count: late.length,
        request: call.id,
        after,
        firstMs: Math.round(late[0]! - call.sentAt),
        rule: run.progressForTaskLifetime ? 'progress stops when the task is terminal' : 'progress is not sent for tasks on this revision',
      }),
    );
  return {
    problems,
    text:
      `${plural(run.progressCount, 'progress notification')} for request ${call.id}` +
      (run.progressForTaskLifetime ? ' (its token lives as long as the task)' : '') +
      `, ${late.length} after ${after}`,
  };
}

/** What looking the first task up from a fresh connection recorded. */
export type DisconnectRun =
  /** Over stdio (or with no way to reconnect) a new connection is a new server. */
  | { readonly notObservable: true }
  | { readonly how: string; readonly taskId: string; readonly failed: string }
  | {
      readonly how: string;
      readonly taskId: string;
      readonly creation: { readonly id: number; readonly sentAt: number };
      readonly read: TaskRead;
      /** The revision has any client find a task by its id (else a server may scope it to its session). */
      readonly anyClientFindsIt: boolean;
    };

export interface Disconnect {
  readonly status: DisconnectObservation;
  readonly survives?: boolean;
  readonly problem?: CheckMessage;
  readonly summary: string;
  readonly text: string;
}

/** Judges whether a fresh connection found the first task: only an answer says it is gone. Pure. */
export function judgeDisconnect(run: DisconnectRun): Disconnect {
  if ('notObservable' in run) {
    const why = 'over stdio a new connection is a new process, a new server: whether a task outlives its connection is not observable';
    return { status: 'not-observable', summary: why, text: why };
  }
  const { how, taskId } = run;
  if ('failed' in run) {
    const why = `no connection ${how} could be opened (${run.failed}): whether the task outlives its connection was not seen`;
    return { status: 'inconclusive', summary: why, text: why };
  }
  const got = run.read;
  if ('task' in got) {
    const text = `tasks/get ${how} found task ${taskId} (${got.task.status}) ${since(run.creation, got.received)} ms after request ${run.creation.id}`;
    return { status: 'seen', survives: true, summary: text, text };
  }
  const text = `tasks/get ${how} did not find task ${taskId}: ${got.failed.text}`;
  // Only an answer says the task is gone; silence says nothing of it.
  if (got.because === 'unanswered')
    return { status: 'inconclusive', summary: `${text}: whether the task outlives its connection was not seen`, text };
  if (run.anyClientFindsIt)
    return {
      status: 'seen',
      survives: false,
      problem: message('lostOnDisconnect', { how, taskId, failure: got.failed.text }),
      summary: text,
      text,
    };
  const allowed = `${text} (allowed on this revision, where a server may scope tasks to the session that created them)`;
  return { status: 'seen', survives: false, summary: allowed, text: allowed };
}
