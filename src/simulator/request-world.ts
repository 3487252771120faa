import type { Fixture } from '../fixtures/fixture-types.js';
import { RequestCoordinator } from '../reference/request-coordinator.js';
import { ClientDeadline } from './client-deadline.js';
import { FixtureError } from './fixture-error.js';
import type { Transcript } from './transcript.js';

/** What the client and the wire saw of one request. */
export interface RequestView {
  readonly name: string;
  readonly deadline: ClientDeadline;
  streamOpen: boolean;
  cancelSignal?: 'close-stream' | 'notification';
  cancelledByClientAt?: number;
  completedAt?: number;
  responsesDelivered: number;
  messagesAfterCancel: number;
  lateCancelReplies: number;
  endedAt?: number;
  reconnect?: { readonly newId: string; readonly lastEventId: boolean; readonly accepted: boolean; readonly refetch: readonly string[] };
}

const FOREVER = Number.MAX_SAFE_INTEGER;

/**
 * The request side of a fixture: the reference RequestCoordinator as the server, and a client that behaves
 * as the operation's policy says (its deadlines, the HTTP signal it uses, how it reconnects), with a server
 * whose policy may send progress or a response after a cancellation.
 */
export class RequestWorld {
  readonly coordinator: RequestCoordinator;
  readonly views = new Map<string, RequestView>();
  readonly #p;

  constructor(
    private readonly fixture: Fixture,
    private readonly transcript: Transcript,
  ) {
    this.coordinator = new RequestCoordinator({ specVersion: fixture.specVersion });
    this.#p = fixture.parameters;
  }

  view(name: string, path: readonly (string | number)[]): RequestView {
    const view = this.views.get(name);
    if (view === undefined) throw new FixtureError(`request ${name} was not started by an earlier step`, path);
    return view;
  }

  start(at: number, name: string, progressToken: string | undefined, path: readonly (string | number)[]): void {
    if (this.views.has(name)) throw new FixtureError(`request ${name} is started twice`, path);
    const p = this.#p;
    const idle = p.idleTimeoutMs !== null && p.idleTimeoutMs > 0 ? p.idleTimeoutMs : FOREVER;
    this.coordinator.start(name, { operation: this.fixture.operation, method: this.fixture.method, transport: this.fixture.transport, startedAtMs: at, idleTimeoutMs: idle, maxTimeoutMs: Math.max(idle, p.maxTimeoutMs ?? FOREVER), ...(progressToken === undefined ? {} : { progressToken }) });
    this.views.set(name, { name, deadline: new ClientDeadline(at, p.idleTimeoutMs, p.maxTimeoutMs, p), streamOpen: this.fixture.transport === 'streamable-http', responsesDelivered: 0, messagesAfterCancel: 0, lateCancelReplies: 0 });
    const params = { name: this.fixture.operation, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) };
    this.transcript.wire(at, 'client → server', { jsonrpc: '2.0', id: name, method: this.fixture.method, params });
    if (this.fixture.transport === 'streamable-http') this.transcript.note(at, 'server', `SSE response stream of ${name} open`);
  }

  progress(at: number, name: string, value: number, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const state = this.coordinator.get(name)!.state;
    if (state === 'completed') return;
    if (state === 'cancelled') {
      if (this.#p.progressStopsOnCancellation) {
        this.transcript.note(at, 'server', `work for ${name} stopped at the cancellation: no progress sent`);
        return;
      }
      this.transcript.note(at, 'server', `the policy keeps reporting progress for the cancelled ${name}`);
      this.#send(at, view, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: this.coordinator.get(name)!.progressToken, progress: value } });
      return;
    }
    const message = this.coordinator.progress(name, value, { nowMs: at });
    if (message === undefined) return;
    this.#send(at, view, message);
    view.deadline.progress(at);
  }

  keepAlive(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    this.transcript.wire(at, 'server → client', `${JSON.stringify(this.coordinator.keepAlive(name, { nowMs: at }))} (SSE comment, not progress)`);
    view.deadline.keepAlive(at);
  }

  tick(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    if (view.cancelledByClientAt !== undefined || this.coordinator.get(name)!.state !== 'in_progress') return;
    const due = view.deadline.due(at);
    if (due === undefined) return;
    this.transcript.note(at, 'client', `${due} of ${name} reached: cancel and stop waiting`);
    this.cancel(at, name, due, path);
  }

  cancel(at: number, name: string, reason: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const completed = this.coordinator.get(name)!.state === 'completed';
    view.cancelledByClientAt ??= at;
    const http = this.fixture.transport === 'streamable-http';
    const signal = http ? (this.#p.httpSignal ?? (this.fixture.specVersion === '2026-07-28' ? 'close-stream' : 'notification')) : 'notification';
    view.cancelSignal = signal;
    if (signal === 'close-stream') {
      this.transcript.wire(at, 'client → server', `[closes the SSE response stream of ${name}] (no JSON-RPC message)`);
      view.streamOpen = false;
      if (this.fixture.specVersion === '2026-07-28' && this.#p.disconnectIsCancellation === false) {
        this.transcript.note(at, 'server', `the policy does not treat a disconnect as cancellation: work for ${name} continues`);
        return;
      }
      this.#outcome(at, view, this.coordinator.closeHttpStream(name, reason), completed);
      return;
    }
    const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: name, reason } };
    this.transcript.wire(at, 'client → server', http ? `POST ${JSON.stringify(message)}` : message);
    this.#outcome(at, view, http ? this.coordinator.receiveHttpCancellation(message) : this.coordinator.receiveStdioCancellation(message), completed);
  }

  complete(at: number, name: string, result: unknown, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const outcome = this.coordinator.complete(name, result);
    if (outcome.suppressed) {
      if (this.#p.suppressResponseAfterCancel) {
        this.transcript.note(at, 'server', `work for ${name} finished after its cancellation: response suppressed`);
        return;
      }
      this.transcript.note(at, 'server', `work for ${name} finished after its cancellation; the policy still sends the response`);
      this.#send(at, view, { jsonrpc: '2.0', id: name, result });
      return;
    }
    if (outcome.repeated) return;
    view.completedAt = at;
    view.endedAt ??= at;
    this.transcript.note(at, 'server', `request ${name}: in_progress → completed`);
    this.#send(at, view, outcome.response);
  }

  dropStream(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    view.streamOpen = false;
    this.transcript.note(at, 'server', `the response stream of ${name} broke (proxy or network)`);
    if (this.fixture.transport !== 'streamable-http') return;
    const outcome = this.coordinator.closeHttpStream(name, 'stream dropped');
    if (outcome.accepted) {
      view.endedAt ??= at;
      this.transcript.note(at, 'server', `request ${name}: in_progress → cancelled (a broken stream loses the in-flight request)`);
    } else this.transcript.note(at, 'server', `request ${name} continues: ${outcome.ignoredBecause}`);
  }

  reconnect(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const { newRequestId, sendLastEventId } = this.#p.reconnect;
    const newId = newRequestId ? `${name}-retry` : name;
    const headers = sendLastEventId ? ' with Last-Event-ID: 1' : '';
    this.transcript.wire(at, 'client → server', `POST${headers} ${JSON.stringify({ jsonrpc: '2.0', id: newId, method: this.fixture.method, params: { name: this.fixture.operation } })}`);
    let accepted = true;
    if (sendLastEventId && this.fixture.specVersion === '2026-07-28') this.transcript.note(at, 'server', 'Last-Event-ID ignored: 2026-07-28 has no resumable streams; events sent after the drop are lost');
    if (newId === name && !(sendLastEventId && this.fixture.specVersion === '2025-11-25')) {
      accepted = false;
      this.transcript.note(at, 'server', `request id ${name} is already in use: the re-issued request collides with the lost one`);
    } else if (newId !== name) {
      this.coordinator.start(newId, { operation: this.fixture.operation, method: this.fixture.method, transport: this.fixture.transport, startedAtMs: at, idleTimeoutMs: FOREVER, maxTimeoutMs: FOREVER });
      this.transcript.note(at, 'server', `request ${newId}: a new request, in_progress`);
    } else this.transcript.note(at, 'server', `stream of ${name} resumed after Last-Event-ID (2025-11-25)`);
    for (const read of this.#p.refetch) this.transcript.wire(at, 'client → server', `refetch: ${read}`);
    if (this.#p.refetch.length === 0) this.transcript.note(at, 'client', 'no refetch: whatever the drop lost stays lost');
    view.reconnect = { newId, lastEventId: sendLastEventId, accepted, refetch: this.#p.refetch };
  }

  #outcome(at: number, view: RequestView, outcome: { accepted: boolean; ignoredBecause?: string }, completedBefore: boolean): void {
    if (outcome.accepted) {
      view.endedAt ??= at;
      const reason = this.coordinator.get(view.name)!.cancelReason;
      this.transcript.note(at, 'server', `request ${view.name}: in_progress → cancelled${reason === undefined ? '' : ` (${reason})`}; no response will follow`);
      return;
    }
    this.transcript.note(at, 'server', `cancellation ignored: ${outcome.ignoredBecause}`);
    if (completedBefore && this.#p.invalidOrLate === 'error-response') {
      view.lateCancelReplies++;
      this.transcript.wire(at, 'server → client', { jsonrpc: '2.0', id: null, error: { code: -32602, message: `request ${view.name} is not in progress` } });
    }
  }

  /** A server message for a request: delivered on stdio or an open stream, lost on a closed one; counted when it follows the client's cancellation. */
  #send(at: number, view: RequestView, message: unknown): void {
    const afterCancel = view.cancelledByClientAt !== undefined;
    if (afterCancel) view.messagesAfterCancel++;
    const isResponse = typeof message === 'object' && message !== null && 'id' in message;
    if (this.fixture.transport === 'streamable-http' && !view.streamOpen) {
      this.transcript.note(at, 'server', `writes ${JSON.stringify(message)} to the closed stream of ${view.name}: not delivered`);
      return;
    }
    this.transcript.wire(at, 'server → client', message);
    if (isResponse) view.responsesDelivered++;
    if (afterCancel) this.transcript.note(at, 'client', `ignores ${isResponse ? 'the late response' : 'the message'} for ${view.name}: it cancelled`);
  }
}
