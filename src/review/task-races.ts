import type { Step } from '../fixtures/fixture-types.js';
import { METHODS } from '../protocol/methods.js';
import type { ScriptRun, TaskEnd } from '../simulator/script-run.js';
import { RACE_TASK, type RaceInput, type RaceScript } from './race-script.js';

/** The three event orders of an operation that runs as a Task: each a script on the reference task service, from no task. */
export function taskRaces(input: RaceInput): RaceScript[] {
  return [taskCancelThenCompletion(input), taskDisconnectThenPoll(), taskTtlThenPoll(input)];
}

const task = RACE_TASK;

function taskEnd(run: ScriptRun): TaskEnd {
  const end = run.tasks.get(task);
  if (end === undefined) throw new Error(`the race script never created ${task}`);
  return end;
}

/** tasks/cancel races the task's own completion: the status the client finally reads must be the task's. */
function taskCancelThenCompletion(input: RaceInput): RaceScript {
  return {
    steps: [
      { at: 0, do: 'task-create', task },
      { at: 100, do: 'task-cancel', task },
      { at: 150, do: 'poll', task },
      { at: 200, do: 'task-finish', task },
      { at: 300, do: 'checkpoint', task },
      { at: 350, do: 'poll', task },
    ],
    read: (run) => {
      const { final, status: actual } = taskEnd(run);
      const acknowledged = input.context.facts['task-cancel'].value === 'acknowledge';
      const viaNotification = input.parameters.task.cancelVia === METHODS.cancelled;
      return {
        order: 'tasks/cancel then completion',
        terminalState: actual === undefined ? 'unknown' : `task ${actual}`,
        finalResponse:
          final === undefined
            ? 'the client never learned a terminal status'
            : `the client ${final.assumed ? 'assumed' : 'read'} ${final.status}`,
        clientBehaviour: viaNotification
          ? 'cancels with notifications/cancelled, which a task ignores'
          : final?.assumed
            ? 'treats the acknowledgement as final and stops polling'
            : 'cancels with tasks/cancel, then polls tasks/get until a terminal status',
        asRequired:
          !viaNotification &&
          final !== undefined &&
          !final.assumed &&
          final.status === actual &&
          (acknowledged ? actual === 'completed' : actual === 'cancelled'),
      };
    },
  };
}

/** The connection drops while the task works: the client polls by id on a new connection, never re-creating it. */
function taskDisconnectThenPoll(): RaceScript {
  return {
    steps: [
      { at: 0, do: 'task-create', task },
      { at: 100, do: 'disconnect' },
      { at: 150, do: 'poll', task },
      { at: 200, do: 'task-finish', task },
      { at: 250, do: 'poll', task },
    ],
    read: (run) => {
      const { final, status, unknownAnswers } = taskEnd(run);
      const lost = unknownAnswers > 0;
      return {
        order: 'disconnect then poll',
        terminalState: lost ? 'the task is gone with the connection' : `task ${status ?? 'unknown'}`,
        finalResponse: final === undefined ? 'never learned' : `tasks/get read ${final.status}`,
        clientBehaviour: 'polls tasks/get by the task id on a new connection; never re-creates the task',
        asRequired: !lost && final?.status === 'completed',
      };
    },
  };
}

/**
 * The task finishes; the client next polls at its declared interval, and the server keeps a task for its TTL
 * from its creation: a TTL that passes before the poll deletes the result the client was waiting for.
 */
function taskTtlThenPoll(input: RaceInput): RaceScript {
  const { ttlMs, pollIntervalMs } = input.parameters.task;
  const finishAt = 100;
  const interval = pollIntervalMs !== undefined && pollIntervalMs !== null && pollIntervalMs > 0 ? pollIntervalMs : null;
  const pollAt = interval === null ? null : Math.ceil((finishAt + 1) / interval) * interval;
  const ttl = ttlMs ?? null;
  // The row lets the work finish first: a TTL shorter than the work is seen passing as it ends (steps run in time order).
  const expiresAt = ttl !== null && (pollAt === null || ttl <= pollAt) ? Math.max(ttl, finishAt) : null;
  const expires = expiresAt !== null;
  const steps: Step[] = [
    { at: 0, do: 'task-create', task },
    { at: finishAt, do: 'task-finish', task },
    ...(pollAt === null
      ? [{ at: finishAt, do: 'note', lane: 'client', text: 'nothing says how often the client polls (task.pollIntervalMs)' } as const]
      : []),
    ...(expiresAt === null ? [] : [{ at: expiresAt, do: 'task-expire', task } as const]),
    ...(pollAt === null ? [] : [{ at: pollAt, do: 'poll', task } as const]),
  ];
  return {
    steps,
    read: (run) => {
      const { final, status } = taskEnd(run);
      return {
        order: 'TTL expiry then tasks/get',
        terminalState: expires ? `deleted at its TTL (${ttl} ms)` : `task ${status ?? 'unknown'}`,
        finalResponse: final === undefined ? 'the client never read the result' : `tasks/get read ${final.status}`,
        clientBehaviour:
          pollAt === null
            ? 'does not say how often it polls'
            : `polls every ${interval} ms; ${ttl === null ? 'no TTL is declared (kept until read)' : `TTL ${ttl} ms`}`,
        asRequired: final?.status === 'completed',
      };
    },
  };
}
