import { usesTask } from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { Section } from '../review-types.js';

/** A durable Task: how it is cancelled on the revision, where its state lives, and how the client learns the end. */
export function tasks(context: ReviewContext): Section | null {
  const { operation, checklist, facts } = context;
  if (!usesTask(operation)) return null;
  const task = operation.task!;
  const acknowledged = facts['task-cancel'].value === 'acknowledge';
  const every = task.pollIntervalMs === undefined ? '' : ` every ${task.pollIntervalMs} ms`;
  const waits =
    task.clientWaits === 'poll'
      ? `polls tasks/get${every}`
      : task.clientWaits === 'listen'
        ? 'listens for status changes'
        : 'does not wait';
  return {
    lines: [
      checklist.line(`cancelled with ${task.cancelVia ?? 'tasks/cancel (not declared)'}`, ['task-no-cancelled-notification']),
      checklist.line(
        acknowledged
          ? `tasks/cancel acknowledges; the task stays working until a worker checkpoint` +
              (task.ackIsTerminal ? ' — but the client treats the acknowledgement as final' : '')
          : `tasks/cancel moves the task to cancelled before answering` +
              (task.cancel === 'acknowledge-then-checkpoint' ? ' — but the policy only acknowledges it' : ''),
        ['task-cancel-semantics'],
      ),
      checklist.line(
        `task state: ${task.store ?? 'store not declared'}, ${task.survivesDisconnect ? 'outlives the connection' : 'tied to the connection'}`,
        ['task-durable-state'],
      ),
      checklist.line(`the client ${waits} until a terminal status`, ['task-wait-until-terminal']),
    ],
  };
}
