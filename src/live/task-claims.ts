import type { TaskPolicy } from '../manifest/types.js';
import type { CheckStatus } from './outcome.js';
import { observationOf, type ReportedObservation } from './probe-observations.js';

/** The tasks check as the task claims read it. */
export interface TasksCheck {
  readonly id: string;
  readonly status: CheckStatus;
  readonly summary: string;
  readonly observed?: ReportedObservation;
}

/** How one claim of a manifest's `task` fared against what the tasks check saw (see ClaimStatus in wire-claims). */
export interface TaskClaim {
  /** The field under the operation: task.cancel, task.survivesDisconnect, task.store. */
  readonly field: 'task.cancel' | 'task.survivesDisconnect' | 'task.store';
  readonly value: string;
  readonly status: 'seen' | 'contradicted' | 'inconclusive' | 'not-observable';
  readonly why: string;
}

/**
 * The task claims the wire can show, judged from the tasks check's observed facts: task.cancel (what tasks/cancel
 * answered, what tasks/get showed next, how the task ended), task.survivesDisconnect (a fresh connection's tasks/get
 * of the first task), task.store: durable (it must then survive). Pure.
 */
export function taskClaims(task: TaskPolicy | undefined, check: TasksCheck | undefined): TaskClaim[] {
  if (task === undefined) return [];
  const claims: TaskClaim[] = [];
  const observed = observationOf(check, 'tasks') ?? {};
  const unplayed = (what: string): Pick<TaskClaim, 'status' | 'why'> =>
    check === undefined
      ? { status: 'inconclusive', why: 'the probe did not run the tasks check' }
      : { status: check.status === 'not-observable' ? 'not-observable' : 'inconclusive', why: `${what} was not seen: ${check.summary}` };
  if (task.cancel !== undefined) {
    const answered = observed.cancelStatus;
    const next = observed.firstAfterCancel;
    const ended = observed.afterCancel;
    const seen =
      `tasks/cancel ${answered === 'acknowledged' ? 'was acknowledged' : `answered ${String(answered)}`}` +
      `${next === undefined ? '' : `, the next tasks/get showed ${String(next)}`}${ended === undefined ? '' : `, the task ended ${String(ended)}`}`;
    let judged: Pick<TaskClaim, 'status' | 'why'>;
    if (answered === undefined) judged = unplayed('tasks/cancel');
    else if (answered === 'refused') judged = { status: 'contradicted', why: check!.summary };
    else if (task.cancel === 'immediate-terminal')
      judged =
        (answered === 'cancelled' || next === 'cancelled') && ended === 'cancelled'
          ? { status: 'seen', why: seen }
          : { status: 'contradicted', why: `${seen}: not cancelled at once` };
    else if (ended === 'cancelled') judged = { status: 'seen', why: seen };
    else if (ended === 'completed' || ended === 'failed')
      judged = { status: 'contradicted', why: `${seen}: the work did not stop at a checkpoint` };
    else judged = { status: 'inconclusive', why: `${seen}: no terminal status was seen` };
    claims.push({ field: 'task.cancel', value: task.cancel, ...judged });
  }
  const survives = observed.survivesDisconnect;
  const disconnect =
    typeof survives === 'boolean'
      ? undefined
      : observed.disconnect === 'not-observable'
        ? ({
            status: 'not-observable',
            why: 'over stdio a new connection is a new process, a new server: probe over Streamable HTTP to see it',
          } as const)
        : unplayed('a disconnect');
  const found = survives === true ? 'a fresh connection found the first task' : 'a fresh connection did not find the first task';
  if (task.survivesDisconnect !== undefined)
    claims.push({
      field: 'task.survivesDisconnect',
      value: String(task.survivesDisconnect),
      ...(disconnect ?? (survives === task.survivesDisconnect ? { status: 'seen', why: found } : { status: 'contradicted', why: found })),
    });
  if (task.store === 'durable')
    claims.push({
      field: 'task.store',
      value: 'durable',
      ...(disconnect ??
        (survives === true ? { status: 'seen', why: found } : { status: 'contradicted', why: `${found}: its state is not durable` })),
    });
  return claims;
}
