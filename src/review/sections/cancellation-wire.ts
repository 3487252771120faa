import { cancelSignalOf, disconnectCancels, usesTask } from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { WireRow } from '../review-types.js';
import { METHODS } from '../../protocol/methods.js';

const SERVER_RULES = ['cancel-suppress-response', 'cancel-invalid-ignored', 'cancel-work-stops', 'cancel-initialize', 'cancel-server-sent'];
const HTTP_RULES = ['cancel-http-signal', 'cancel-disconnect-semantics'];

/** How a cancellation travels on each transport the operation is offered on, and what the server does with it. */
export function cancellationWire(context: ReviewContext): WireRow[] {
  const { operation, specVersion, facts } = context;
  const cancellation = operation.cancellation ?? {};
  const server = [
    { immediately: 'stops the work at once', checkpoint: 'stops the work at its next checkpoint', never: 'lets the work run to the end' }[
      cancellation.stopsWork ?? 'never'
    ] + (cancellation.stopsWork === undefined ? ' (how the work stops is not declared)' : ''),
    cancellation.suppressResponseAfterCancel === true ? 'sends no response' : 'may still send the response',
    cancellation.invalidOrLate === 'ignore'
      ? 'ignores unknown, late or malformed cancellations'
      : cancellation.invalidOrLate === 'error-response'
        ? 'answers unknown, late or malformed cancellations with errors'
        : 'does not say what it does with unknown, late or malformed cancellations',
  ].join('; ');
  if (usesTask(operation)) {
    // A Task is cancelled by tasks/cancel on every transport; notifications/cancelled MUST NOT be used for it.
    const task = operation.task ?? {};
    const viaNotification = task.cancelVia === METHODS.cancelled;
    const taskServer =
      task.cancel === 'immediate-terminal'
        ? 'moves the task to cancelled before it answers'
        : task.cancel === 'acknowledge-then-checkpoint'
          ? 'acknowledges; the worker stops at its next checkpoint, and the task may still complete'
          : 'does not say what tasks/cancel does';
    return context.transports.map((transport) => ({
      ...context.checklist.line(
        `${transport}: ${viaNotification ? 'notifications/cancelled (never for a task)' : 'tasks/cancel {taskId}'}; the server ${taskServer}`,
        ['task-no-cancelled-notification', 'task-cancel-semantics'],
      ),
      transport,
      clientSignal: viaNotification ? 'notifications/cancelled (a task ignores it: tasks/cancel is the only way)' : 'tasks/cancel {taskId}',
      server: taskServer,
    }));
  }
  return context.transports.map((transport) => {
    if (cancellation.clientMayCancel === false) {
      return {
        ...context.checklist.line('the client never cancels this request', SERVER_RULES),
        transport,
        clientSignal: 'none: the request is not cancellable (on a timeout the connection is closed)',
        server,
      };
    }
    if (transport === 'stdio') {
      return {
        ...context.checklist.line(`stdio: notifications/cancelled, ${server}`, SERVER_RULES),
        transport,
        clientSignal: 'notifications/cancelled {requestId, reason}',
        server,
      };
    }
    const signal = cancelSignalOf(operation, transport, specVersion);
    const revisionSignal = facts['http-cancel-signal'].value;
    const clientSignal =
      signal === 'close-stream'
        ? "closes the request's SSE response stream (no notification)"
        : 'POSTs notifications/cancelled {requestId, reason}';
    const differs =
      signal === revisionSignal
        ? ''
        : ` — ${specVersion} cancels by ${revisionSignal === 'close-stream' ? 'closing the stream' : 'the notification'}`;
    const disconnect = disconnectCancels(operation, specVersion)
      ? 'treats a closed stream as the cancellation and sends nothing more for the request'
      : 'does not treat a closed stream as a cancellation: the work goes on';
    return {
      ...context.checklist.line(`Streamable HTTP: the client ${clientSignal}${differs}; the server ${disconnect}`, [
        ...HTTP_RULES,
        ...SERVER_RULES,
      ]),
      transport,
      clientSignal: `${clientSignal}${differs}`,
      server: `${disconnect}; ${server}`,
    };
  });
}
