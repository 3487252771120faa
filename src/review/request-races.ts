import type { Step } from '../fixtures/fixture-types.js';
import { losesStateOnDrop, retriesAutomatically } from '../policy/predicates.js';
import { RACE_REQUEST, type RaceInput, type RaceScript, requestEnd, startStep } from './race-script.js';

/** The four event orders of a request (a call, a read, a prompt): each a script on the reference coordinator. */
export function requestRaces(input: RaceInput): RaceScript[] {
  return [cancelThenComplete(input), completeThenCancel(input), timeoutThenLateResponse(input), disconnect(input)];
}

const request = RACE_REQUEST;

function cancelThenComplete(input: RaceInput): RaceScript {
  const steps: Step[] = [
    startStep(input),
    ...(input.progress ? [{ at: 50, do: 'progress', request, value: 1 } as const] : []),
    { at: 100, do: 'cancel', request, reason: 'user pressed stop' },
    { at: 200, do: 'complete', request, result: { done: true } },
  ];
  return {
    steps,
    read: (run) => {
      const seen = requestEnd(run);
      return {
        order: 'cancel then complete',
        terminalState: String(seen.state),
        finalResponse:
          seen.responsesDelivered > 0
            ? 'sent after the cancellation (must be suppressed)'
            : seen.messagesAfterCancel > 0
              ? 'written to a closed stream'
              : 'suppressed',
        clientBehaviour: 'continue recovery: the request is gone; re-issue or reconcile',
        asRequired: seen.state === 'cancelled' && seen.responsesDelivered === 0 && seen.messagesAfterCancel === 0,
      };
    },
  };
}

function completeThenCancel(input: RaceInput): RaceScript {
  return {
    // The messages cross: the client cancels before the response it does not have yet reaches it.
    steps: [
      startStep(input),
      { at: 100, do: 'complete', request, result: { done: true }, inTransit: true },
      { at: 150, do: 'cancel', request, reason: 'user pressed stop' },
      { at: 200, do: 'deliver', request },
    ],
    read: (run) => {
      const seen = requestEnd(run);
      return {
        order: 'complete then cancel',
        terminalState: String(seen.state),
        finalResponse: seen.responsesDelivered > 0 ? 'preserved' : 'lost',
        clientBehaviour:
          seen.lateCancelReplies > 0
            ? 'receives an error for its late cancellation (must be ignored silently)'
            : 'ignore the late cancellation; keep the result',
        asRequired: seen.state === 'completed' && seen.responsesDelivered === 1 && seen.lateCancelReplies === 0,
      };
    },
  };
}

/** What the client does after its own timeout, by its retry policy and the operation's retry class. */
function afterTimeout(input: RaceInput): { text: string; safe: boolean } {
  const operation = input.context.operation;
  if (!retriesAutomatically(operation)) {
    const caller = {
      SAFE: 'the caller may simply issue it again',
      CONDITIONAL: 'the caller reconciles by key before any retry',
      UNSAFE: 'the caller reconciles before anything is sent again',
    }[input.retry];
    return { text: `no automatic retry: ${caller}`, safe: true };
  }
  const newId = operation.retry?.newRequestId === false ? 'the same id' : 'a new request id';
  if (input.retry === 'SAFE') return { text: `retries automatically with ${newId}`, safe: true };
  if (input.retry === 'CONDITIONAL')
    return {
      text:
        operation.retry?.reconcileFirst === true
          ? `looks the key up, and re-sends with the same key and arguments (${newId}) only if nothing committed`
          : `re-sends with the same key and arguments (${newId}); the ledger replays`,
      safe: true,
    };
  return { text: `re-sends automatically without an idempotency key (${newId}): the mutation may run twice`, safe: false };
}

function timeoutThenLateResponse(input: RaceInput): RaceScript {
  const { idleTimeoutMs, maxTimeoutMs } = input.parameters;
  const deadlines = [idleTimeoutMs, maxTimeoutMs].filter((value): value is number => value !== null && value > 0);
  const client = afterTimeout(input);
  if (deadlines.length === 0)
    return {
      steps: [startStep(input), { at: 1000, do: 'complete', request, result: { done: true } }],
      read: () => ({
        order: 'timeout then late response',
        terminalState: 'no timeout fires',
        finalResponse: 'whenever the server sends it',
        clientBehaviour: 'waits for ever: the policy sets no timeout',
        asRequired: false,
      }),
    };
  const due = Math.min(...deadlines);
  return {
    // The work finishes as the deadline passes: the response is on its way when the client gives up, and arrives after.
    steps: [
      startStep(input),
      { at: due, do: 'complete', request, result: { done: true }, inTransit: true },
      { at: due, do: 'tick', request },
      { at: due + 50, do: 'deliver', request },
    ],
    read: (run) => {
      const seen = requestEnd(run);
      const gaveUp = seen.cancelledByClient || seen.abandoned;
      const handed = seen.lateHandedToCaller > 0;
      return {
        order: 'timeout then late response',
        terminalState: !gaveUp
          ? 'no timeout fired before the response'
          : seen.cancelledByClient
            ? `the client cancelled by the transport's signal (${seen.cancelSignal === 'close-stream' ? 'closed stream' : 'notifications/cancelled'}); ` +
              'the response had already left the server'
            : 'the client stopped waiting without cancelling',
        finalResponse: handed ? 'arrived late and was handed to the caller (must be ignored)' : 'arrived late; the client ignored it',
        clientBehaviour: client.text,
        asRequired: gaveUp && seen.cancelledByClient && !handed && client.safe,
      };
    },
  };
}

/** The connection (stdio) or the response stream (HTTP) breaks before the response. */
function disconnect(input: RaceInput): RaceScript {
  const { context, parameters } = input;
  const order = input.progress ? 'disconnect during progress' : 'disconnect before the response';
  const beforeTheBreak: Step[] = [startStep(input), ...(input.progress ? [{ at: 100, do: 'progress', request, value: 1 } as const] : [])];
  const stateful = losesStateOnDrop(context.operation);
  const refetch = parameters.refetch;
  const refetchText =
    refetch.length > 0
      ? `refetch ${refetch.join(', ')}`
      : stateful
        ? 'refetch nothing (state is lost)'
        : 'nothing to refetch (a read is issued again)';
  const unsafeReplay = input.retry === 'UNSAFE' && context.operation.recovery?.replayUnsafeMutations === true;
  const inFlight =
    input.retry === 'UNSAFE'
      ? unsafeReplay
        ? '; replays the unsafe mutation automatically'
        : '; never replays the unsafe mutation: reconciles first'
      : '';
  const refetchOk = !stateful || refetch.length > 0;
  if (input.transport === 'stdio')
    return {
      steps: [
        ...beforeTheBreak,
        { at: 200, do: 'note', lane: 'server', text: 'stdio connection closed: the session and every request in it are gone' },
        { at: 250, do: 'note', lane: 'client', text: `a new session; ${refetchText}` },
      ],
      read: () => ({
        order,
        terminalState: 'in-flight request lost with the session',
        finalResponse: 'none (no stream to resume)',
        clientBehaviour: `start a new session and re-issue as a new request; ${refetchText}${inFlight}`,
        asRequired: refetchOk && !unsafeReplay,
      }),
    };
  return {
    steps: [...beforeTheBreak, { at: 200, do: 'drop-stream', request }, { at: 250, do: 'reconnect', request }],
    read: (run) => {
      const seen = requestEnd(run);
      const reconnect = seen.reconnect!;
      const resumable = context.facts['last-event-id-resumption'].value;
      const reissued = reconnect.newId !== request && reconnect.accepted;
      const asRequired =
        (resumable
          ? reissued || (reconnect.lastEventId && reconnect.accepted)
          : seen.state === 'cancelled' && reissued && !reconnect.lastEventId) &&
        refetchOk &&
        !unsafeReplay;
      return {
        order,
        terminalState:
          seen.state === 'cancelled'
            ? 'in-flight request cancelled'
            : `${seen.state} (a disconnect is not a cancellation on ${context.specVersion})`,
        finalResponse: resumable ? (reconnect.lastEventId ? 'resumed with Last-Event-ID' : 'not resumed') : 'no resumable stream',
        clientBehaviour:
          `${reconnect.newId !== request ? `reconnect as new request ${reconnect.newId}` : 'reconnect with the old id'}` +
          `${reconnect.lastEventId ? ', sends Last-Event-ID' : ''}; ${refetchText}${inFlight}`,
        asRequired,
      };
    },
  };
}
