import type { FixtureParameters } from '../fixtures/fixture-types.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import type { OperationSpec } from '../manifest/types.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../spec/transports.js';
import type { RetryClass } from '../reference/classify-retry.js';
import { RequestWorld } from '../simulator/request-world.js';
import { Transcript } from '../simulator/transcript.js';
import { sequenceDiagram } from './mermaid.js';
import type { RaceRow, RaceTable } from './review-types.js';

interface RaceInput {
  readonly operation: OperationSpec;
  readonly specVersion: SpecVersion;
  readonly transport: Transport;
  readonly parameters: FixtureParameters;
  readonly retry: RetryClass;
}

/**
 * The four event orders every review must decide, each run on the reference coordinator with this
 * operation's policy, so the table shows what this policy yields rather than what it should.
 */
export function raceTable(input: RaceInput): RaceTable {
  return { transport: input.transport, rows: [cancelThenComplete(input), completeThenCancel(input), timeoutThenLateResponse(input), disconnectDuringProgress(input)] };
}

function world(input: RaceInput): { world: RequestWorld; transcript: Transcript } {
  const transcript = new Transcript();
  const fixture: Fixture = { mcprelyFixture: 1, id: 'race', kind: 'stdio-cancel-before-completion', title: 'race', operation: input.operation.name, method: input.operation.method, transport: input.transport, specVersion: input.specVersion, parameters: input.parameters, steps: [], expect: [] };
  return { world: new RequestWorld(fixture, transcript), transcript };
}

function outcome(world: RequestWorld): { state: string; reason?: string; delivered: number; afterCancel: number; lateReplies: number } {
  const record = world.coordinator.get('r1')!;
  const view = world.views.get('r1')!;
  return { state: record.state, ...(record.cancelReason === undefined ? {} : { reason: record.cancelReason }), delivered: view.responsesDelivered, afterCancel: view.messagesAfterCancel, lateReplies: view.lateCancelReplies };
}

function cancelThenComplete(input: RaceInput): RaceRow {
  const { world: requests, transcript } = world(input);
  requests.start(0, 'r1', 'p1', []);
  requests.cancel(100, 'r1', 'user pressed stop', []);
  requests.complete(200, 'r1', { done: true }, []);
  const seen = outcome(requests);
  const asRequired = seen.state === 'cancelled' && seen.delivered === 0 && seen.afterCancel === 0;
  return {
    order: 'cancel then complete',
    terminalState: seen.state,
    finalResponse: seen.delivered > 0 ? 'sent after the cancellation (must be suppressed)' : seen.afterCancel > 0 ? 'written to a closed stream' : 'suppressed',
    clientBehaviour: 'continue recovery: the request is gone; re-issue or reconcile',
    asRequired,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

function completeThenCancel(input: RaceInput): RaceRow {
  const { world: requests, transcript } = world(input);
  requests.start(0, 'r1', 'p1', []);
  requests.complete(100, 'r1', { done: true }, []);
  requests.cancel(150, 'r1', 'user pressed stop', []);
  const seen = outcome(requests);
  return {
    order: 'complete then cancel',
    terminalState: seen.state,
    finalResponse: seen.delivered > 0 ? 'preserved' : 'lost',
    clientBehaviour: seen.lateReplies > 0 ? 'receives an error for its late cancellation (must be ignored silently)' : 'ignore the late cancellation; keep the result',
    asRequired: seen.state === 'completed' && seen.delivered === 1 && seen.lateReplies === 0,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

function timeoutThenLateResponse(input: RaceInput): RaceRow {
  const { world: requests, transcript } = world(input);
  const { idleTimeoutMs, maxTimeoutMs } = input.parameters;
  const deadlines = [idleTimeoutMs, maxTimeoutMs].filter((value): value is number => value !== null && value > 0);
  const client = { SAFE: 'retry with a new request id', CONDITIONAL: 'reconcile by key, then retry with the same key and arguments', UNSAFE: 'reconcile before any retry; never retry automatically' }[input.retry];
  requests.start(0, 'r1', 'p1', []);
  if (deadlines.length === 0) {
    requests.complete(1000, 'r1', { done: true }, []);
    return { order: 'timeout then late response', terminalState: 'no timeout fires', finalResponse: 'whenever the server sends it', clientBehaviour: 'waits for ever: the policy sets no timeout', asRequired: false, mermaid: sequenceDiagram(transcript.entries) };
  }
  const due = Math.min(...deadlines);
  requests.tick(due, 'r1', []);
  requests.complete(due + 50, 'r1', { done: true }, []);
  const seen = outcome(requests);
  const delivered = seen.delivered > 0;
  return {
    order: 'timeout then late response',
    terminalState: seen.state === 'cancelled' ? `cancelled by the transport's signal (${seen.reason ?? 'timeout'})` : `${seen.state}: the timeout did not cancel the request`,
    finalResponse: delivered ? 'sent late; the client ignores it' : 'suppressed',
    clientBehaviour: client,
    asRequired: seen.state === 'cancelled' && seen.afterCancel === 0,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

function disconnectDuringProgress(input: RaceInput): RaceRow {
  const { world: requests, transcript } = world(input);
  requests.start(0, 'r1', 'p1', []);
  requests.progress(100, 'r1', 1, []);
  if (input.transport === 'stdio') {
    transcript.note(200, 'server', 'stdio connection closed: the session and every request in it are gone');
    return { order: 'disconnect during progress', terminalState: 'in-flight request lost with the session', finalResponse: 'none (no stream to resume)', clientBehaviour: 'start a new session, re-issue as a new request and refetch', asRequired: true, mermaid: sequenceDiagram(transcript.entries) };
  }
  requests.dropStream(200, 'r1', []);
  requests.reconnect(250, 'r1', []);
  const seen = outcome(requests);
  const reconnect = requests.views.get('r1')!.reconnect!;
  const revision2026 = input.specVersion === '2026-07-28';
  const asRequired = revision2026 ? seen.state === 'cancelled' && reconnect.newId !== 'r1' && !reconnect.lastEventId && reconnect.refetch.length > 0 : reconnect.refetch.length > 0 || reconnect.lastEventId;
  return {
    order: 'disconnect during progress',
    terminalState: seen.state === 'cancelled' ? 'in-flight request cancelled' : `${seen.state} (a disconnect is not a cancellation on ${input.specVersion})`,
    finalResponse: revision2026 ? 'no resumable stream' : reconnect.lastEventId ? 'resumed with Last-Event-ID' : 'not resumed',
    clientBehaviour: `${reconnect.newId !== 'r1' ? `reconnect as new request ${reconnect.newId}` : 'reconnect with the old id'}${reconnect.lastEventId ? ', sends Last-Event-ID' : ''}; ${reconnect.refetch.length > 0 ? `refetch ${reconnect.refetch.join(', ')}` : 'refetch nothing'}`,
    asRequired,
    mermaid: sequenceDiagram(transcript.entries),
  };
}
