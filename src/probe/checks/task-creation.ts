import { tasks } from '../check-declarations/tasks.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { since } from '../probe-types.js';
import type { Received } from '../received.js';
import { toolFailed } from './observe.js';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { isTaskStatus } from '../../protocol/task-status.js';

const message = messagesOf(tasks);

/** A task as the server described it (CreateTaskResult, tasks/get, tasks/cancel). */
export interface TaskState {
  readonly taskId: string;
  readonly status: string;
  readonly pollMs?: number;
  /** The inline result or error of a terminal task (where the revision inlines them). */
  readonly result?: unknown;
  readonly error?: unknown;
}

/** What a task-augmented tools/call recorded: how it asked, and the response or why none came. */
export interface TaskCreationRun {
  readonly tool: { readonly name: string; readonly taskSupport?: string };
  /** The server decides per request whether to create a task (the revision's task augmentation). */
  readonly serverDirected: boolean;
  /** How the request asked for a task, in words. */
  readonly how: string;
  readonly call: { readonly id: number; readonly sentAt: number };
  readonly response?: Received;
  /** Unanswered: why (the transport's reason, when there is one), how long the probe waited, and whether its budget cut that short. */
  readonly unanswered?: { readonly why?: string; readonly waitedMs: number; readonly budgetCut: boolean };
}

/** The task created, or why none was: the server's fault (`problem`), or no fault of its own (`unplayed`). */
export type TaskCreation =
  | { readonly task: TaskState; readonly detail: string }
  | { readonly problem: CheckMessage }
  | { readonly unplayed: CheckMessage };

/** Judges the answer to a task-augmented tools/call: a task with an id and a known status, or why none. Pure. */
export function judgeTaskCreation(run: TaskCreationRun): TaskCreation {
  const { call, tool, how } = run;
  const request = call.id;
  const response = run.response;
  if (response === undefined) {
    const unanswered = run.unanswered ?? { waitedMs: 0, budgetCut: false };
    // The probe's budget cut the wait short: its limit, not the server's fault.
    if (unanswered.why === undefined && unanswered.budgetCut) return { unplayed: message('budgetSpent', { waitMs: unanswered.waitedMs }) };
    const why = unanswered.why ?? `no CreateTaskResult within ${unanswered.waitedMs} ms`;
    return { problem: message('creationUnanswered', { request, how, why }) };
  }
  const atMs = since(call, response);
  const answer = response.message;
  const error = answer['error'] as { code?: unknown; message?: unknown } | undefined;
  if (error !== undefined) {
    if (run.serverDirected && error.code === ERROR_CODES.missingRequiredClientCapability)
      return { problem: message('capabilityRefused', { how, atMs, request }) };
    return { unplayed: message('toolRefused', { tool: tool.name, failure: String(toolFailed(answer)), atMs, request }) };
  }
  const result = objectAt(answer, ['result']) ?? {};
  const seed = run.serverDirected ? (result['resultType'] === 'task' ? result : undefined) : objectAt(result, ['task']);
  if (seed === undefined) {
    const failed = toolFailed(answer);
    if (failed !== undefined) return { unplayed: message('toolFailedNotTask', { tool: tool.name, failure: failed, atMs, request }) };
    if (run.serverDirected)
      return {
        unplayed: message('ordinaryResultChosen', {
          tool: tool.name,
          atMs,
          request,
          resultType: JSON.stringify(result['resultType'] ?? null),
        }),
      };
    return { problem: message('ordinaryResult', { tool: tool.name, atMs, request, taskSupport: String(tool.taskSupport) }) };
  }
  const task = taskOf(seed);
  if (task === undefined) return { problem: message('malformedTask', { atMs, request, seed: JSON.stringify(seed).slice(0, 200) }) };
  return {
    task,
    detail:
      `tools/call ${how}: task ${task.taskId}, ${task.status}, ${atMs} ms after request ${request}` +
      (task.pollMs === undefined ? '' : `; the server suggests polling every ${task.pollMs} ms`),
  };
}

/** A Task object's fields, as either revision names them; undefined when it has no taskId or an unknown status. */
export function taskOf(value: unknown): TaskState | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const task = value as Record<string, unknown>;
  const taskId = task['taskId'];
  const status = task['status'];
  if (typeof taskId !== 'string' || typeof status !== 'string' || !isTaskStatus(status)) return undefined;
  const poll = task['pollIntervalMs'] ?? task['pollInterval'];
  return {
    taskId,
    status,
    ...(typeof poll === 'number' && Number.isFinite(poll) && poll >= 0 ? { pollMs: poll } : {}),
    ...('result' in task ? { result: task['result'] } : {}),
    ...('error' in task ? { error: task['error'] } : {}),
  };
}

/** The object at `path` in `value`, when there is one. */
export function objectAt(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let at: unknown = value;
  for (const key of path)
    at = typeof at === 'object' && at !== null && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'object' && at !== null && !Array.isArray(at) ? (at as Record<string, unknown>) : undefined;
}
