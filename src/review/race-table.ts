import type { Fixture, FixtureParameters } from '../fixtures/fixture-types.js';
import { emitsProgress, losesStateOnDrop, retriesAutomatically, retryClassOf } from '../policy/predicates.js';
import type { RetryClass } from '../reference/classify-retry.js';
import { listenReissueProblems } from '../simulator/request-reconnect.js';
import { RequestWorld } from '../simulator/request-world.js';
import { TaskWorld } from '../simulator/task-world.js';
import { protocolOf } from '../policy/method-protocol.js';
import { Transcript } from '../simulator/transcript.js';
import type { Transport } from '../protocol/transports.js';
import { sequenceDiagram } from './mermaid.js';
import type { ReviewContext } from './review-context.js';
import type { RaceRow, RaceTable } from './review-types.js';
import { METHODS } from '../protocol/methods.js';

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
  // The rows depend on the policy, the transports and the revision, never on the operation's name or
  // description: operations that share a policy share their tables (a manifest of many alike is reviewed fast).
  const { name: _name, description: _description, ...policy } = context.operation;
  const key = JSON.stringify([context.specVersion, context.transports, policy, parameters]);
  const known = TABLES.get(key);
  if (known !== undefined) return known;
  const tables = tablesOf(context, parameters);
  if (TABLES.size >= TABLES_KEPT) TABLES.clear();
  TABLES.set(key, tables);
  return tables;
}

/** Race tables already worked out, by policy (bounded: cleared when full). */
const TABLES = new Map<string, RaceTable[]>();
const TABLES_KEPT = 1000;

function tablesOf(context: ReviewContext, parameters: FixtureParameters): RaceTable[] {
  return context.transports.map((transport) => {
    const input: RaceInput = {
      context,
      transport,
      parameters,
      retry: retryClassOf(context.operation).classification,
      progress: emitsProgress(context.operation),
    };
    const protocol = protocolOf(context.operation);
    if (protocol === 'task')
      return { transport, rows: [taskCancelThenCompletion(input), taskDisconnectThenPoll(input), taskTtlThenPoll(input)] };
    if (protocol === 'listen')
      return {
        transport,
        rows: [
          listenCloseThenServerEnd(input),
          ...(context.facts['subscriptions-listen'].value ? [listenServerEndThenClose(input)] : []),
          ...(transport === 'streamable-http' ? [listenDropThenReissue(input)] : []),
        ],
      };
    return { transport, rows: [cancelThenComplete(input), completeThenCancel(input), timeoutThenLateResponse(input), disconnect(input)] };
  });
}

function shellFixture(input: RaceInput): Fixture {
  const { operation, specVersion } = input.context;
  return {
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
}

function world(input: RaceInput): { requests: RequestWorld; transcript: Transcript } {
  const transcript = new Transcript();
  const requests = new RequestWorld(shellFixture(input), transcript);
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
  // The messages cross: the client cancels before the response it does not have yet reaches it.
  requests.complete(100, 'r1', { done: true }, [], true);
  requests.cancel(150, 'r1', 'user pressed stop', []);
  requests.deliver(200, 'r1', []);
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
  // The work finishes as the deadline passes: the response is on its way when the client gives up, and arrives after.
  requests.complete(due, 'r1', { done: true }, [], true);
  requests.tick(due, 'r1', []);
  requests.deliver(due + 50, 'r1', []);
  const view = requests.views.get('r1')!;
  const gaveUp = view.cancelledByClientAt !== undefined || view.abandonedAt !== undefined;
  const handed = view.lateHandedToCaller > 0;
  return {
    order: 'timeout then late response',
    terminalState: !gaveUp
      ? 'no timeout fired before the response'
      : view.cancelledByClientAt !== undefined
        ? `the client cancelled by the transport's signal (${view.cancelSignal === 'close-stream' ? 'closed stream' : 'notifications/cancelled'}); ` +
          'the response had already left the server'
        : 'the client stopped waiting without cancelling',
    finalResponse: handed ? 'arrived late and was handed to the caller (must be ignored)' : 'arrived late; the client ignored it',
    clientBehaviour: client.text,
    asRequired: gaveUp && view.cancelledByClientAt !== undefined && !handed && client.safe,
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

/** A row played on a fresh task world for this policy, closed after (each row starts from no task). */
function withTaskWorld(input: RaceInput, play: (tasks: TaskWorld, transcript: Transcript) => Omit<RaceRow, 'mermaid'>): RaceRow {
  const transcript = new Transcript();
  const tasks = new TaskWorld({ ...shellFixture(input), kind: 'task-cancel-ack-then-worker-checkpoint' }, transcript);
  try {
    return { ...play(tasks, transcript), mermaid: sequenceDiagram(transcript.entries) };
  } finally {
    tasks.close();
  }
}

/** tasks/cancel races the task's own completion: the status the client finally reads must be the task's. */
function taskCancelThenCompletion(input: RaceInput): RaceRow {
  return withTaskWorld(input, (tasks) => {
    tasks.create(0, 't1', []);
    tasks.cancel(100, 't1', []);
    tasks.poll(150, 't1', []);
    tasks.finish(200, 't1', []);
    tasks.checkpoint(300, 't1', []);
    tasks.poll(350, 't1', []);
    const final = tasks.client.get('t1')?.final;
    const actual = tasks.status('t1');
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
  });
}

/** The connection drops while the task works: the client polls by id on a new connection, never re-creating it. */
function taskDisconnectThenPoll(input: RaceInput): RaceRow {
  return withTaskWorld(input, (tasks) => {
    tasks.create(0, 't1', []);
    tasks.disconnect(100);
    tasks.poll(150, 't1', []);
    tasks.finish(200, 't1', []);
    tasks.poll(250, 't1', []);
    const final = tasks.client.get('t1')?.final;
    const lost = (tasks.unknownAnswers.get('t1') ?? 0) > 0;
    return {
      order: 'disconnect then poll',
      terminalState: lost ? 'the task is gone with the connection' : `task ${tasks.status('t1') ?? 'unknown'}`,
      finalResponse: final === undefined ? 'never learned' : `tasks/get read ${final.status}`,
      clientBehaviour: 'polls tasks/get by the task id on a new connection; never re-creates the task',
      asRequired: !lost && final?.status === 'completed',
    };
  });
}

/**
 * The task finishes; the client next polls at its declared interval, and the server keeps a task for its TTL
 * from its creation: a TTL that passes before the poll deletes the result the client was waiting for.
 */
function taskTtlThenPoll(input: RaceInput): RaceRow {
  return withTaskWorld(input, (tasks, transcript) => {
    const { ttlMs, pollIntervalMs } = input.parameters.task;
    const finishAt = 100;
    const interval = pollIntervalMs !== undefined && pollIntervalMs !== null && pollIntervalMs > 0 ? pollIntervalMs : null;
    const pollAt = interval === null ? null : Math.ceil((finishAt + 1) / interval) * interval;
    const ttl = ttlMs ?? null;
    tasks.create(0, 't1', []);
    tasks.finish(finishAt, 't1', []);
    const expires = ttl !== null && (pollAt === null || ttl <= pollAt);
    if (pollAt === null) transcript.note(finishAt, 'client', 'nothing says how often the client polls (task.pollIntervalMs)');
    if (expires) tasks.expire(ttl, 't1', []);
    if (pollAt !== null) tasks.poll(pollAt, 't1', []);
    const final = tasks.client.get('t1')?.final;
    return {
      order: 'TTL expiry then tasks/get',
      terminalState: expires ? `deleted at its TTL (${ttl} ms)` : `task ${tasks.status('t1') ?? 'unknown'}`,
      finalResponse: final === undefined ? 'the client never read the result' : `tasks/get read ${final.status}`,
      clientBehaviour:
        pollAt === null
          ? 'does not say how often it polls'
          : `polls every ${interval} ms; ${ttl === null ? 'no TTL is declared (kept until read)' : `TTL ${ttl} ms`}`,
      asRequired: final?.status === 'completed',
    };
  });
}

/** The server ends the subscription first; the client learns of it and has nothing to close. */
function listenServerEndThenClose(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  requests.serverEnd(100, 'r1', []);
  requests.cancel(150, 'r1', 'the view was closed', []);
  const told = requests.views.get('r1')!.endedByServer?.told === true;
  return {
    order: 'server end then client close',
    terminalState: 'ended by the server',
    finalResponse: told
      ? input.transport === 'stdio'
        ? 'notifications/cancelled for the listen id'
        : 'the listen stream closed'
      : 'nothing: the client is never told',
    clientBehaviour: told ? 'learns the subscription ended; sends nothing more for it' : 'keeps waiting on a subscription that is gone',
    asRequired: told,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

/** The client closes the subscription; the server must end it and send nothing more for it. */
function listenCloseThenServerEnd(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  requests.cancel(100, 'r1', 'the view was closed', []);
  requests.complete(200, 'r1', { done: true }, []);
  const seen = outcome(requests);
  return {
    order: 'client close then server end',
    terminalState: seen.state,
    finalResponse:
      seen.delivered > 0 || seen.afterCancel > 0 ? 'the server wrote more for the closed subscription' : 'nothing after the close',
    clientBehaviour: input.transport === 'stdio' ? 'closes with notifications/cancelled for the listen id' : 'closes the listen stream',
    asRequired: seen.state === 'cancelled' && seen.delivered === 0 && seen.afterCancel === 0,
    mermaid: sequenceDiagram(transcript.entries),
  };
}

/** The listen stream drops: a new subscription with a new id, the filter restored, no tool name, duplicates dropped, state refetched. */
function listenDropThenReissue(input: RaceInput): RaceRow {
  const { requests, transcript } = world(input);
  requests.dropStream(200, 'r1', []);
  requests.reconnect(250, 'r1', []);
  const reconnect = requests.views.get('r1')!.reconnect!;
  const listen = reconnect.listen;
  const problems = [
    ...listenReissueProblems(reconnect, 'r1'),
    ...(reconnect.lastEventId && !input.context.facts['last-event-id-resumption'].value ? ['it sent Last-Event-ID'] : []),
    ...(reconnect.refetch.length === 0 ? ['it refetches nothing'] : []),
  ];
  return {
    order: 'drop then re-issue',
    terminalState: 'the dropped subscription is gone',
    finalResponse: 'no resumable stream',
    clientBehaviour:
      `re-issues as ${reconnect.newId}` +
      (listen?.dedupeBy ? `, de-duplicates by ${listen.dedupeBy}` : '') +
      (reconnect.refetch.length > 0 ? `; refetch ${reconnect.refetch.join(', ')}` : '') +
      (problems.length > 0 ? `; ${problems.join(', ')}` : ''),
    asRequired: problems.length === 0,
    mermaid: sequenceDiagram(transcript.entries),
  };
}
