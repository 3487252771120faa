import type { Fixture, FixtureParameters } from '../fixtures/fixture-types.js';
import { emitsProgress, losesStateOnDrop, retriesAutomatically, retryClassOf } from '../policy/predicates.js';
import type { RetryClass } from '../reference/classify-retry.js';
import { RequestWorld } from '../simulator/request-world.js';
import { Transcript } from '../simulator/transcript.js';
import type { Transport } from '../spec/transports.js';
import { sequenceDiagram } from './mermaid.js';
import type { ReviewContext } from './review-context.js';
import type { RaceRow, RaceTable } from './review-types.js';

interface RaceInput {
  readonly context: ReviewContext;
  readonly transport: Transport;
  readonly parameters: FixtureParameters;
  readonly retry: RetryClass;
  readonly progress: boolean;
}

/**
 * The four event orders every review must decide, for each transport the operation is offered on, each run
 * on the reference coordinator with this operation's policy, so the table shows what this policy yields
 * rather than what it should.
 */
export function raceTables(context: ReviewContext, parameters: FixtureParameters): RaceTable[] {
  return context.transports.map((transport) => {
    const input: RaceInput = {
      context,
      transport,
      parameters,
      retry: retryClassOf(context.operation).classification,
      progress: emitsProgress(context.operation),
    };
    return { transport, rows: [cancelThenComplete(input), completeThenCancel(input), timeoutThenLateResponse(input), disconnect(input)] };
  });
}

function world(input: RaceInput): { requests: RequestWorld; transcript: Transcript } {
  const transcript = new Transcript();
  const { operation, specVersion } = input.context;
  const shell: Fixture = {
    mcprelyFixture: 1,
    id: 'race',
    kind: 'stdio-cancel-before-completion',
    title: 'race',
    operation: operation.name,
    method: operation.method,
    transport: input.transport,
    specVersion,
    parameters: input.parameters,
    steps: [],
    expect: [],
  };
  const requests = new RequestWorld(shell, transcript);
  requests.start(0, 'r1', input.progress ? 'p1' : undefined, []);
  return { requests, transcript };
}

function outcome(requests: RequestWorld): { state: string; reason?: string; delivered: number; afterCancel: number; lateReplies: number } {
  const record = requests.coordinator.get('r1')!;
  const view = requests.views.get('r1')!;
  return {
    state: record.state,
    ...(record.cancelReason === undefined ? {} : { reason: record.cancelReason }),
    delivered: view.responsesDelivered,
    afterCancel: view.messagesAfterCancel,
    lateReplies: view.lateCancelReplies,
  };
}

function cancelThenComplete(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  if (input.progress) requests.progress(50, 'r1', 1, []);
  requests.cancel(100, 'r1', 'user pressed stop', []);
  requests.complete(200, 'r1', { done: true }, []);
  const seen = outcome(requests);
  return {
    order: 'cancel then complete',
    terminalState: seen.state,
    finalResponse:
      seen.delivered > 0
        ? 'sent after the cancellation (must be suppressed)'
        : seen.afterCancel > 0
          ? 'written to a closed stream'
          : 'suppressed',
    clientBehaviour: 'continue recovery: the request is gone; re-issue or reconcile',
    asRequired: seen.state === 'cancelled' && seen.delivered === 0 && seen.afterCancel === 0,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

function completeThenCancel(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  requests.complete(100, 'r1', { done: true }, []);
  requests.cancel(150, 'r1', 'user pressed stop', []);
  const seen = outcome(requests);
  return {
    order: 'complete then cancel',
    terminalState: seen.state,
    finalResponse: seen.delivered > 0 ? 'preserved' : 'lost',
    clientBehaviour:
      seen.lateReplies > 0
        ? 'receives an error for its late cancellation (must be ignored silently)'
        : 'ignore the late cancellation; keep the result',
    asRequired: seen.state === 'completed' && seen.delivered === 1 && seen.lateReplies === 0,
    mermaid: sequenceDiagram(transcript.entries),
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

function timeoutThenLateResponse(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  const { idleTimeoutMs, maxTimeoutMs } = input.parameters;
  const deadlines = [idleTimeoutMs, maxTimeoutMs].filter((value): value is number => value !== null && value > 0);
  const client = afterTimeout(input);
  if (deadlines.length === 0) {
    requests.complete(1000, 'r1', { done: true }, []);
    return {
      order: 'timeout then late response',
      terminalState: 'no timeout fires',
      finalResponse: 'whenever the server sends it',
      clientBehaviour: 'waits for ever: the policy sets no timeout',
      asRequired: false,
      mermaid: sequenceDiagram(transcript.entries),
    };
  }
  const due = Math.min(...deadlines);
  requests.tick(due, 'r1', []);
  requests.complete(due + 50, 'r1', { done: true }, []);
  const seen = outcome(requests);
  return {
    order: 'timeout then late response',
    terminalState:
      seen.state === 'cancelled'
        ? `cancelled by the transport's signal (${seen.reason ?? 'timeout'})`
        : `${seen.state}: the timeout did not cancel the request`,
    finalResponse: seen.delivered > 0 ? 'sent late; the client ignores it' : 'suppressed',
    clientBehaviour: client.text,
    asRequired: seen.state === 'cancelled' && seen.afterCancel === 0 && client.safe,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

/** The connection (stdio) or the response stream (HTTP) breaks before the response. */
function disconnect(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  const { context, parameters } = input;
  const order = input.progress ? 'disconnect during progress' : 'disconnect before the response';
  if (input.progress) requests.progress(100, 'r1', 1, []);
  const stateful = losesStateOnDrop(context.operation);
  const refetch = parameters.refetch;
  const refetchText = stateful
    ? refetch.length > 0
      ? `refetch ${refetch.join(', ')}`
      : 'refetch nothing (state is lost)'
    : 'nothing to refetch (a read is issued again)';
  const unsafeReplay = input.retry === 'UNSAFE' && context.operation.recovery?.replayUnsafeMutations === true;
  const inFlight =
    input.retry === 'UNSAFE'
      ? unsafeReplay
        ? '; replays the unsafe mutation automatically'
        : '; never replays the unsafe mutation: reconciles first'
      : '';
  const refetchOk = !stateful || refetch.length > 0;
  if (input.transport === 'stdio') {
    transcript.note(200, 'server', 'stdio connection closed: the session and every request in it are gone');
    transcript.note(250, 'client', `a new session; ${refetchText}`);
    return {
      order,
      terminalState: 'in-flight request lost with the session',
      finalResponse: 'none (no stream to resume)',
      clientBehaviour: `start a new session and re-issue as a new request; ${refetchText}${inFlight}`,
      asRequired: refetchOk && !unsafeReplay,
      mermaid: sequenceDiagram(transcript.entries),
    };
  }
  requests.dropStream(200, 'r1', []);
  requests.reconnect(250, 'r1', []);
  const seen = outcome(requests);
  const reconnect = requests.views.get('r1')!.reconnect!;
  const resumable = context.facts['last-event-id-resumption'].value;
  const reissued = reconnect.newId !== 'r1' && reconnect.accepted;
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
      `${reconnect.newId !== 'r1' ? `reconnect as new request ${reconnect.newId}` : 'reconnect with the old id'}` +
      `${reconnect.lastEventId ? ', sends Last-Event-ID' : ''}; ${refetchText}${inFlight}`,
    asRequired,
    mermaid: sequenceDiagram(transcript.entries),
  };
}
