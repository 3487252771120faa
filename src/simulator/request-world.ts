import { plural } from '../text/plural.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import { progressOnListenStream, repeatedProgressNote, reportedProgress } from './progress-policy.js';
import { RequestCoordinator } from '../reference/request-coordinator.js';
import { missingSseHeaders } from '../reference/recovery.js';
import { factsOf, type RevisionFacts } from '../spec/revision-facts.js';
import { ClientDeadline } from './client-deadline.js';
import { FixtureError } from './fixture-error.js';
import { protocolOfFixture, requestParams } from './request-message.js';
import type { RequestReconnect } from './request-reconnect.js';
import type { RequestEnd } from './script-run.js';
import type { Transcript } from './transcript.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { METHODS } from '../protocol/methods.js';

/** What the client and the wire saw of one request. */
export interface RequestView {
  readonly name: string;
  readonly deadline: ClientDeadline;
  streamOpen: boolean;
  cancelSignal?: 'close-stream' | 'notification';
  cancelledByClientAt?: number;
  /** The client stopped waiting without cancelling (its policy does not cancel on a timeout). */
  abandonedAt?: number;
  completedAt?: number;
  responsesDelivered: number;
  messagesAfterCancel: number;
  lateCancelReplies: number;
  /** Progress notifications the server wrote for the request, and how many reached the client when written. */
  progressSent: number;
  progressOnTime: number;
  /** The last time the server wrote anything on the request's stream (for the proxy's idle timeout). */
  lastWriteAt: number;
  /** Messages a buffering proxy holds until the response ends the stream. */
  held: unknown[];
  endedAt?: number;
  reconnect?: RequestReconnect;
  /** Messages the server sent for the request after its response. */
  messagesAfterResponse: number;
  /** The server's work went on after an accepted cancellation (its handler never checks, or it never stops). */
  workRanOn: boolean;
  /** Responses the server wrote that are still on their way to the client (the client has not seen them). */
  inTransit: unknown[];
  /** Responses the client handed to its caller after it had cancelled or stopped waiting. */
  lateHandedToCaller: number;
  /** The id the request has on the wire (a retry keeps the old one when its policy reuses ids). */
  wireId: string;
  /** The server refused the request (its id was in use). */
  refusedBecause?: string;
  /** The server ended the subscription, and whether the client was told. */
  endedByServer?: { readonly at: number; readonly told: boolean };
  /** Why each notifications/cancelled the server sent for the request is one its revision forbids (empty: none, or all allowed). */
  serverCancelsForbidden?: string[];
  /** The progress token the request carries, and the progress values the client received for it, in order. */
  progressToken?: string;
  progressSeen: number[];
  /** The last progress value the server sent for the request. */
  lastProgressSent?: number;
  /** Progress the server sent on the subscriptions/listen stream instead of the request's own. */
  progressOnListen: number;
}

const FOREVER = Number.MAX_SAFE_INTEGER;

/**
 * The request side of a fixture: the reference RequestCoordinator as the server, and a client that behaves
 * as the operation's policy says (its deadlines, the HTTP signal it uses, how it reconnects), with a server
 * whose policy may send progress or a response after a cancellation. On Streamable HTTP a reverse proxy sits
 * between them: it buffers the SSE response unless the declared headers tell it not to, and closes a stream
 * that carries nothing (no event, no keep-alive comment) for its idle timeout.
 */
export class RequestWorld {
  readonly coordinator: RequestCoordinator;
  readonly views = new Map<string, RequestView>();
  readonly #p;
  readonly #facts: RevisionFacts;
  readonly #http: boolean;
  /** Headers whose absence makes the proxy buffer; empty when the proxy delivers each event at once. */
  readonly #buffersBecause: readonly string[];

  constructor(
    private readonly fixture: Fixture,
    private readonly transcript: Transcript,
  ) {
    this.coordinator = new RequestCoordinator({ specVersion: fixture.specVersion });
    this.#p = fixture.parameters;
    this.#facts = factsOf(fixture.specVersion);
    this.#http = fixture.transport === 'streamable-http';
    this.#buffersBecause = this.#http ? missingSseHeaders(this.#p.http.sseHeaders ?? {}) : [];
  }

  view(name: string, path: readonly (string | number)[]): RequestView {
    const view = this.views.get(name);
    if (view === undefined) throw new FixtureError(`request ${name} was not started by an earlier step`, path);
    return view;
  }

  /** How a request ended, as plain data (undefined for a request no step started). */
  end(name: string): RequestEnd | undefined {
    const view = this.views.get(name);
    if (view === undefined) return undefined;
    return {
      state: this.coordinator.get(name)?.state,
      responsesDelivered: view.responsesDelivered,
      messagesAfterCancel: view.messagesAfterCancel,
      lateCancelReplies: view.lateCancelReplies,
      cancelledByClient: view.cancelledByClientAt !== undefined,
      cancelSignal: view.cancelSignal,
      abandoned: view.abandonedAt !== undefined,
      lateHandedToCaller: view.lateHandedToCaller,
      reconnect: view.reconnect,
      endedByServerTold: view.endedByServer?.told,
    };
  }

  start(at: number, name: string, progressToken: string | undefined, path: readonly (string | number)[], wireId: string = name): void {
    if (this.views.has(name)) throw new FixtureError(`request ${name} is started twice`, path);
    const p = this.#p;
    const idle = p.idleTimeoutMs !== null && p.idleTimeoutMs > 0 ? p.idleTimeoutMs : FOREVER;
    const view: RequestView = {
      name,
      deadline: new ClientDeadline(at, p.idleTimeoutMs, p.maxTimeoutMs, p),
      streamOpen: this.#http,
      responsesDelivered: 0,
      messagesAfterCancel: 0,
      messagesAfterResponse: 0,
      lateCancelReplies: 0,
      progressSent: 0,
      progressOnTime: 0,
      lastWriteAt: at,
      held: [],
      workRanOn: false,
      inTransit: [],
      lateHandedToCaller: 0,
      wireId,
      ...(progressToken === undefined ? {} : { progressToken }),
      progressSeen: [],
      progressOnListen: 0,
    };
    this.views.set(name, view);
    const params = requestParams(this.fixture, progressToken);
    this.transcript.wire(at, 'client → server', { jsonrpc: '2.0', id: wireId, method: this.fixture.method, params });
    if (wireId !== name && this.#inUse(wireId)) {
      view.refusedBecause = `request id ${wireId} is already in use`;
      view.endedAt = at;
      this.transcript.note(at, 'server', `refuses the request: id ${wireId} was already used in this session`);
      this.transcript.wire(at, 'server → client', {
        jsonrpc: '2.0',
        id: wireId,
        error: { code: ERROR_CODES.invalidRequest, message: view.refusedBecause },
      });
      return;
    }
    this.coordinator.start(name, {
      operation: this.fixture.operation,
      method: this.fixture.method,
      transport: this.fixture.transport,
      startedAtMs: at,
      idleTimeoutMs: idle,
      maxTimeoutMs: Math.max(idle, p.maxTimeoutMs ?? FOREVER),
      ...(progressToken === undefined ? {} : { progressToken }),
    });
    if (protocolOfFixture(this.fixture) === 'listen' && this.#facts['subscriptions-listen'].value)
      this.transcript.wire(at, 'server → client', { jsonrpc: '2.0', method: METHODS.subscriptionsAcknowledged, params: {} });
    if (!this.#http) return;
    const json = p.http.responseMode === 'json';
    this.transcript.note(
      at,
      'server',
      json
        ? `the server will answer ${name} with a single JSON response: no SSE stream, nothing before the result`
        : `SSE response stream of ${name} open`,
    );
    if (this.#buffersBecause.length > 0 && !json)
      this.transcript.note(
        at,
        'proxy',
        `the SSE response lacks ${this.#buffersBecause.join(', ')}: the proxy buffers the stream until the response ends`,
      );
    const { keepaliveMs, proxyIdleTimeoutMs } = p.http;
    if (proxyIdleTimeoutMs !== null)
      this.transcript.note(
        at,
        'proxy',
        `closes a connection idle for ${proxyIdleTimeoutMs} ms; the server sends ` +
          (keepaliveMs === null ? 'no keep-alive comments' : `a keep-alive comment every ${keepaliveMs} ms on a quiet stream`),
      );
  }

  progress(at: number, name: string, value: number, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    this.#proxyIdle(at, view);
    const record = this.coordinator.get(name);
    if (record === undefined) return;
    const state = record.state;
    if (state === 'completed') {
      if (this.#p.request?.progressStopsOnCompletion !== false) return;
      this.transcript.note(at, 'server', `the policy keeps reporting progress for ${name} after its response`);
      this.#send(at, view, {
        jsonrpc: '2.0',
        method: METHODS.progress,
        params: { progressToken: record.progressToken, progress: value },
      });
      return;
    }
    if (state === 'cancelled') {
      if (this.#p.progressStopsOnCancellation) {
        this.transcript.note(
          at,
          'server',
          view.workRanOn
            ? `work for ${name} runs on after the cancellation; its progress is not sent`
            : this.#p.request?.stopsWork === 'checkpoint'
              ? `no progress is sent for the cancelled ${name}`
              : `work for ${name} stopped at the cancellation: no progress sent`,
        );
        return;
      }
      this.transcript.note(at, 'server', `the policy keeps reporting progress for the cancelled ${name}`);
      this.#send(at, view, {
        jsonrpc: '2.0',
        method: METHODS.progress,
        params: { progressToken: this.coordinator.get(name)!.progressToken, progress: value },
      });
      return;
    }
    const { sent, repeated } =
      record.progressToken === undefined ? { sent: value, repeated: false } : reportedProgress(this.#p, view.lastProgressSent, value);
    if (repeated) this.transcript.note(at, 'server', repeatedProgressNote(sent, value));
    const message = repeated
      ? { jsonrpc: '2.0', method: METHODS.progress, params: { progressToken: record.progressToken, progress: sent } }
      : this.coordinator.progress(name, value, { nowMs: at });
    if (message === undefined) return;
    view.lastProgressSent = (message.params as { progress: number }).progress;
    view.progressSent++;
    if (progressOnListenStream(this.#p, this.fixture.specVersion, this.#http)) {
      this.#onListenStream(at, view, message);
      return;
    }
    if (this.#send(at, view, message)) {
      view.progressOnTime++;
      view.deadline.progress(at);
    }
  }

  /**
   * Progress the policy sends on the subscriptions/listen stream: it reaches the client apart from the request's
   * own stream, so the client cannot tie it to the request (its clocks are not reset), and it outlives the
   * request's cancellation.
   */
  #onListenStream(at: number, view: RequestView, message: unknown): void {
    view.progressOnListen++;
    if (view.cancelledByClientAt !== undefined) view.messagesAfterCancel++;
    this.transcript.note(
      at,
      'server',
      `the policy sends the progress of ${view.name} on the subscriptions/listen stream, not on its own response stream`,
    );
    this.transcript.wire(at, 'server → client', `${JSON.stringify(message)} (on the subscriptions/listen stream)`);
    this.transcript.note(
      at,
      'client',
      `a progress notification on the listen stream: not tied to the request ${view.name}, its clocks are not reset`,
    );
  }

  keepAlive(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    this.#proxyIdle(at, view);
    this.transcript.wire(
      at,
      'server → client',
      `${JSON.stringify(this.coordinator.keepAlive(name, { nowMs: at }))} (SSE comment, not progress)`,
    );
    view.lastWriteAt = at;
    view.deadline.keepAlive(at);
  }

  tick(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    this.#proxyIdle(at, view);
    // The client decides by what it has seen: a response still on its way does not stop its clocks.
    if (view.cancelledByClientAt !== undefined || view.abandonedAt !== undefined || view.responsesDelivered > 0) return;
    if (view.refusedBecause !== undefined) return;
    const due = view.deadline.due(at);
    if (due === undefined) return;
    if (!this.#p.cancelOnTimeout) {
      view.abandonedAt = at;
      this.transcript.note(
        at,
        'client',
        `${due} of ${name} reached: stops waiting without cancelling; the server is not told and keeps working`,
      );
      return;
    }
    this.transcript.note(at, 'client', `${due} of ${name} reached: cancel and stop waiting`);
    this.cancel(at, name, due, path);
  }

  cancel(at: number, name: string, reason: string, path: readonly (string | number)[], crossing = false): void {
    const view = this.view(name, path);
    if (crossing)
      this.transcript.note(at, 'client', `cancels ${name} before it has read what the server last sent for it (the messages cross)`);
    else if (view.endedByServer?.told === true) {
      this.transcript.note(at, 'client', `the server already ended ${name}: nothing to close, nothing is sent`);
      return;
    }
    if (!crossing && view.responsesDelivered > 0) {
      this.transcript.note(at, 'client', `already has the response of ${name}: nothing to cancel, nothing is sent`);
      return;
    }
    if (view.refusedBecause !== undefined || this.coordinator.get(name) === undefined) return;
    // A cancellation for a request that already ended (its work finished, or the server ended it) is a late one.
    const completed = this.coordinator.get(name)!.state === 'completed' || view.endedByServer !== undefined;
    view.cancelledByClientAt ??= at;
    const signal = this.#http ? (this.#p.httpSignal ?? this.#facts['http-cancel-signal'].value) : 'notification';
    view.cancelSignal = signal;
    if (signal === 'close-stream') {
      this.transcript.wire(at, 'client → server', `[closes the SSE response stream of ${name}] (no JSON-RPC message)`);
      this.#closeStream(view);
      // Treating a closed stream as the cancellation is a mechanism the server has only where its policy says so.
      if (this.#facts['disconnect-is-cancellation'].value && this.#p.disconnectIsCancellation !== true) {
        this.transcript.note(
          at,
          'server',
          this.#p.disconnectIsCancellation === false
            ? `the policy does not treat a disconnect as cancellation: work for ${name} continues`
            : `nothing says the server treats a disconnect as cancellation (disconnectIsCancellation): work for ${name} continues`,
        );
        return;
      }
      if (this.#facts['disconnect-is-cancellation'].value && this.#p.http.responseMode === 'json') {
        this.transcript.note(
          at,
          'server',
          `the server answers with a single JSON response: its handler is not told the stream of ${name} closed, and runs to the end`,
        );
        return;
      }
      this.#outcome(at, view, this.coordinator.closeHttpStream(name, reason), completed);
      return;
    }
    const message = { jsonrpc: '2.0', method: METHODS.cancelled, params: { requestId: name, reason } };
    this.transcript.wire(at, 'client → server', this.#http ? `POST ${JSON.stringify(message)}` : message);
    this.#outcome(
      at,
      view,
      this.#http ? this.coordinator.receiveHttpCancellation(message) : this.coordinator.receiveStdioCancellation(message),
      completed,
    );
  }

  complete(
    at: number,
    name: string,
    result: unknown,
    path: readonly (string | number)[],
    inTransit = false,
    computedBeforeCancel = false,
  ): void {
    const view = this.view(name, path);
    this.#proxyIdle(at, view);
    if (view.refusedBecause !== undefined) return;
    const cancelled = this.coordinator.get(name)!.state === 'cancelled';
    // Work interrupted at once never reaches its end; work that stops at its next checkpoint may be in its last
    // step, with no checkpoint left, and finishes: its response is the one the server must suppress. A result the
    // work already had when the cancellation arrived is there however the work stops.
    if (cancelled && computedBeforeCancel)
      this.transcript.note(
        at,
        'server',
        `the work for ${name} already had its result when the cancellation arrived: the server is about to write it`,
      );
    else if (cancelled && !view.workRanOn && this.#p.request?.stopsWork !== 'checkpoint') return;
    else if (cancelled && !view.workRanOn)
      this.transcript.note(at, 'server', `the work for ${name} was in its last step (no checkpoint left): it finishes`);
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
    if (inTransit && (!this.#http || view.streamOpen)) {
      view.inTransit.push(outcome.response);
      this.transcript.wire(at, 'server → client', `${JSON.stringify(outcome.response)} (on its way: the client has not received it yet)`);
      return;
    }
    this.#send(at, view, outcome.response);
  }

  /** The responses on their way reach the client now; after a timeout the client's policy decides what it does with them. */
  deliver(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const arriving = view.inTransit.splice(0);
    if (arriving.length === 0) {
      this.transcript.note(at, 'client', `nothing for ${name} is on its way`);
      return;
    }
    for (const message of arriving) {
      view.responsesDelivered++;
      const gaveUp = view.cancelledByClientAt !== undefined || view.abandonedAt !== undefined;
      if (!gaveUp) {
        this.transcript.note(at, 'client', `receives the response of ${name}`);
        continue;
      }
      if (this.#p.request?.lateResponse === 'deliver') {
        view.lateHandedToCaller++;
        this.transcript.note(
          at,
          'client',
          `the response of ${name} arrives after the client gave up on it: the policy hands it to the caller, which was already told it failed`,
        );
      } else
        this.transcript.note(
          at,
          'client',
          `the response of ${name} arrives after the client ${view.abandonedAt !== undefined ? 'stopped waiting' : 'cancelled'}: ` +
            `ignored (${JSON.stringify(message)})`,
        );
    }
  }

  /**
   * The client re-sends a request it gave up on (after a timeout, or a broken stream) as its retry policy says:
   * a new request id, or the old one again, which the server refuses because it was already used.
   */
  retry(at: number, of: string, name: string, path: readonly (string | number)[]): void {
    const first = this.view(of, path);
    const wireId = this.#p.retry.newRequestId ? name : first.wireId;
    this.transcript.note(
      at,
      'client',
      `re-sends ${of} automatically (${this.#p.retry.automatic ?? 'retry'}) ` +
        (wireId === first.wireId ? `with the same id ${wireId}` : `as the new request ${wireId}`),
    );
    this.start(at, name, undefined, path, wireId);
  }

  /**
   * The server ends a subscription: on stdio it tells the client with notifications/cancelled for the listen id
   * (when its policy says it does); on Streamable HTTP it closes the listen stream, which the client sees.
   */
  serverEnd(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    if (protocolOfFixture(this.fixture) !== 'listen' || !this.#facts['subscriptions-listen'].value) {
      this.#giveUp(at, view);
      return;
    }
    if (this.#http) {
      // On Streamable HTTP the server ends a subscription by closing its stream; a policy that says it sends
      // notifications/cancelled writes one on the stream first.
      if (this.#p.request?.serverSendsCancelled === true)
        this.#serverCancel(at, view, { jsonrpc: '2.0', method: METHODS.cancelled, params: { requestId: view.wireId } });
      this.coordinator.closeHttpStream(name, 'subscription ended by the server');
      this.#closeStream(view);
      view.endedByServer = { at, told: true };
      this.transcript.note(at, 'server', `ends the subscription ${name}: closes its listen stream`);
      return;
    }
    if (this.#p.request?.serverSendsCancelled === false) {
      view.endedByServer = { at, told: false };
      this.transcript.note(
        at,
        'server',
        `ends the subscription ${name} without telling the client (the policy sends no notifications/cancelled)`,
      );
      return;
    }
    view.endedByServer = { at, told: true };
    this.#serverCancel(at, view, this.coordinator.serverCancelSubscription(name));
  }

  /**
   * The server gives up on a request the client issued: it answers with an error, or, where its policy says it
   * sends notifications/cancelled, with that instead (which the revision forbids for a request the client issued).
   */
  #giveUp(at: number, view: RequestView): void {
    if (this.coordinator.get(view.name)?.state !== 'in_progress') {
      this.transcript.note(at, 'server', `request ${view.name} already ended: nothing to give up`);
      return;
    }
    view.endedAt ??= at;
    if (this.#p.request?.serverSendsCancelled === true) {
      this.transcript.note(at, 'server', `gives up on ${view.name}; the policy tells the client with notifications/cancelled`);
      this.#serverCancel(at, view, {
        jsonrpc: '2.0',
        method: METHODS.cancelled,
        params: { requestId: view.wireId, reason: 'the server gave up on the work' },
      });
      return;
    }
    this.transcript.note(at, 'server', `gives up on ${view.name}: answers with an error`);
    view.completedAt = at;
    this.#send(at, view, {
      jsonrpc: '2.0',
      id: view.wireId,
      error: { code: ERROR_CODES.internalError, message: 'the server gave up on the work' },
    });
  }

  /** A notifications/cancelled the server sends for a request, kept with why its revision forbids it (if it does). */
  #serverCancel(at: number, view: RequestView, message: unknown): void {
    const allowed = this.#facts['server-sent-cancellation'].value;
    const listen = protocolOfFixture(this.fixture) === 'listen';
    const forbidden =
      allowed === 'own-requests'
        ? `on ${this.fixture.specVersion} a server cancels only requests it issued, and ${view.name} is the client's`
        : !listen
          ? `on ${this.fixture.specVersion} a server sends notifications/cancelled only to end a subscriptions/listen stream, not a ${this.fixture.method}`
          : this.#http
            ? `on ${this.fixture.specVersion} server-sent notifications/cancelled exists only on stdio; on Streamable HTTP the server closes the stream`
            : undefined;
    if (forbidden !== undefined) {
      view.serverCancelsForbidden ??= [];
      view.serverCancelsForbidden.push(forbidden);
    }
    if (this.#http && !view.streamOpen) {
      this.transcript.note(at, 'server', `writes ${JSON.stringify(message)} to the closed stream of ${view.name}: not delivered`);
      return;
    }
    this.transcript.wire(at, 'server → client', message);
  }

  dropStream(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    this.#closeStream(view);
    this.transcript.note(at, 'server', `the response stream of ${name} broke (proxy or network)`);
    if (!this.#http) return;
    this.#lose(at, view, 'stream dropped');
  }

  reconnect(at: number, name: string, path: readonly (string | number)[]): void {
    const view = this.view(name, path);
    const { newRequestId, sendLastEventId } = this.#p.reconnect;
    const resumable = this.#facts['last-event-id-resumption'].value;
    const newId = newRequestId ? `${name}-retry` : name;
    const headers = sendLastEventId ? ' with Last-Event-ID: 1' : '';
    const listen = protocolOfFixture(this.fixture) === 'listen';
    const request = this.#p.request;
    const reissue = listen
      ? { restoresFilter: request?.restoresFilter === true, carriesToolName: request?.carriesToolName === true }
      : undefined;
    this.transcript.wire(
      at,
      'client → server',
      `POST${headers} ${JSON.stringify({ jsonrpc: '2.0', id: newId, method: this.fixture.method, params: requestParams(this.fixture, undefined, reissue) })}`,
    );
    if (reissue !== undefined) {
      if (!reissue.restoresFilter)
        this.transcript.note(at, 'client', 'the re-issued subscription does not restore the filter the dropped one had');
      if (reissue.carriesToolName)
        this.transcript.note(
          at,
          'client',
          `the re-issued subscription carries a tool name (${this.fixture.operation}): subscriptions/listen is not a tool call`,
        );
      const dedupeBy = request?.dedupeBy ?? null;
      this.transcript.note(
        at,
        'client',
        dedupeBy === null
          ? 'events seen before the drop may come again: nothing de-duplicates them'
          : `events seen before the drop are recognised by ${dedupeBy} and dropped as duplicates`,
      );
    }
    let accepted = true;
    if (sendLastEventId && !resumable)
      this.transcript.note(
        at,
        'server',
        `Last-Event-ID ignored: ${this.fixture.specVersion} has no resumable streams; events sent after the drop are lost`,
      );
    if (newId === name && !(sendLastEventId && resumable)) {
      accepted = false;
      this.transcript.note(at, 'server', `request id ${name} is already in use: the re-issued request collides with the lost one`);
    } else if (newId !== name) {
      this.coordinator.start(newId, {
        operation: this.fixture.operation,
        method: this.fixture.method,
        transport: this.fixture.transport,
        startedAtMs: at,
        idleTimeoutMs: FOREVER,
        maxTimeoutMs: FOREVER,
      });
      this.transcript.note(at, 'server', `request ${newId}: a new request, in_progress`);
    } else
      this.transcript.note(at, 'server', `stream of ${name} resumed after Last-Event-ID (${this.fixture.specVersion} allows resuming)`);
    for (const read of this.#p.refetch) this.transcript.wire(at, 'client → server', `refetch: ${read}`);
    if (this.#p.refetch.length === 0) this.transcript.note(at, 'client', 'no refetch: whatever the drop lost stays lost');
    view.reconnect = {
      newId,
      lastEventId: sendLastEventId,
      accepted,
      refetch: this.#p.refetch,
      ...(reissue === undefined ? {} : { listen: { ...reissue, dedupeBy: request?.dedupeBy ?? null } }),
    };
  }

  #outcome(at: number, view: RequestView, outcome: { accepted: boolean; ignoredBecause?: string }, completedBefore: boolean): void {
    if (outcome.accepted) {
      view.endedAt ??= at;
      const reason = this.coordinator.get(view.name)!.cancelReason;
      this.transcript.note(
        at,
        'server',
        `request ${view.name}: in_progress → cancelled${reason === undefined ? '' : ` (${reason})`}; no response will follow`,
      );
      this.#workAfterCancel(at, view);
      return;
    }
    this.transcript.note(at, 'server', `cancellation ignored: ${outcome.ignoredBecause}`);
    // A closed stream carries no reply; a late notification is what a policy may answer with an error.
    if (completedBefore && view.cancelSignal === 'notification' && this.#p.invalidOrLate === 'error-response') {
      view.lateCancelReplies++;
      this.transcript.wire(at, 'server → client', {
        jsonrpc: '2.0',
        id: null,
        error: { code: ERROR_CODES.invalidParams, message: `request ${view.name} is not in progress` },
      });
    }
  }

  /** What the server's work does once the cancellation is accepted: stop (at once or at its next checkpoint) or run on. */
  #workAfterCancel(at: number, view: RequestView): void {
    const request = this.#p.request;
    if (request === undefined) return;
    if (request.handler === 'never-checks' || request.stopsWork === 'never' || request.stopsWork === null) {
      view.workRanOn = true;
      const why =
        request.handler === 'never-checks'
          ? 'its handler never checks for cancellation'
          : request.stopsWork === 'never'
            ? 'the policy never stops work'
            : 'nothing says the handler checks for cancellation';
      this.transcript.note(at, 'server', `the work for ${view.name} runs on: ${why}`);
      return;
    }
    this.transcript.note(
      at,
      'server',
      request.stopsWork === 'immediately'
        ? `the work for ${view.name} stops at once`
        : `the work for ${view.name} stops at its next checkpoint (${request.handler === 'cooperative' ? 'it checks the signal' : 'it checks between steps'})`,
    );
  }

  /** Whether a request id was already used in this session (tracked by the coordinator or by a view). */
  #inUse(id: string): boolean {
    for (const view of this.views.values())
      if (view.wireId === id && view.refusedBecause === undefined && this.coordinator.get(view.name) !== undefined) return true;
    return false;
  }

  /** The stream broke under a request (a dropped connection, a proxy's idle timeout): the revision decides whether that cancels it. */
  #lose(at: number, view: RequestView, reason: string): void {
    const outcome = this.coordinator.closeHttpStream(view.name, reason);
    if (outcome.accepted) {
      view.endedAt ??= at;
      this.transcript.note(at, 'server', `request ${view.name}: in_progress → cancelled (a broken stream loses the in-flight request)`);
    } else this.transcript.note(at, 'server', `request ${view.name} continues: ${outcome.ignoredBecause}`);
  }

  #closeStream(view: RequestView): void {
    view.streamOpen = false;
    view.held = [];
  }

  /**
   * The proxy closes a stream that carried nothing for its idle timeout. Keep-alive comments sent more often
   * than that keep it open; without them the longest silence is the time since the server last wrote.
   */
  #proxyIdle(at: number, view: RequestView): void {
    const { proxyIdleTimeoutMs, keepaliveMs } = this.#p.http;
    if (!this.#http || !view.streamOpen || proxyIdleTimeoutMs === null || proxyIdleTimeoutMs <= 0) return;
    if (keepaliveMs !== null && keepaliveMs > 0 && keepaliveMs < proxyIdleTimeoutMs) return;
    const closesAt = view.lastWriteAt + proxyIdleTimeoutMs;
    if (closesAt > at) return;
    this.#closeStream(view);
    this.transcript.note(closesAt, 'proxy', `nothing crossed the stream of ${view.name} for ${proxyIdleTimeoutMs} ms: the proxy closes it`);
    if (this.coordinator.get(view.name)!.state === 'in_progress') this.#lose(closesAt, view, 'proxy idle timeout');
  }

  /**
   * A server message for a request: delivered on stdio or an open stream (held by a buffering proxy until the
   * response ends the stream), lost on a closed one; counted when it follows the client's cancellation.
   * Returns whether the client received it when it was written.
   */
  #send(at: number, view: RequestView, message: unknown): boolean {
    const afterCancel = view.cancelledByClientAt !== undefined;
    if (afterCancel) view.messagesAfterCancel++;
    const isResponse = typeof message === 'object' && message !== null && 'id' in message;
    if (!isResponse && view.completedAt !== undefined) view.messagesAfterResponse++;
    if (this.#http && !view.streamOpen) {
      this.transcript.note(at, 'server', `writes ${JSON.stringify(message)} to the closed stream of ${view.name}: not delivered`);
      return false;
    }
    view.lastWriteAt = at;
    if (this.#http && !isResponse && this.#p.http.responseMode === 'json') {
      this.transcript.note(
        at,
        'server',
        `${JSON.stringify(message)} is not sent: the server answers with a single JSON response, which carries nothing before the result`,
      );
      return false;
    }
    if (this.#http && this.#buffersBecause.length > 0) {
      view.held.push(message);
      if (!isResponse) {
        this.transcript.note(at, 'proxy', `holds ${JSON.stringify(message)} in its buffer (${view.held.length} held)`);
        return false;
      }
      this.transcript.note(at, 'proxy', `the response ends the stream: flushes ${plural(view.held.length, 'buffered message')} at once`);
      for (const held of view.held) this.#deliver(at, view, held);
      view.held = [];
      return false;
    }
    this.#deliver(at, view, message);
    return true;
  }

  #deliver(at: number, view: RequestView, message: unknown): void {
    const isResponse = typeof message === 'object' && message !== null && 'id' in message;
    const progress = (message as { method?: unknown; params?: { progress?: unknown } } | null)?.params?.progress;
    if (!isResponse && (message as { method?: unknown }).method === METHODS.progress && typeof progress === 'number')
      view.progressSeen.push(progress);
    this.transcript.wire(at, 'server → client', message);
    if (isResponse) view.responsesDelivered++;
    if (view.cancelledByClientAt !== undefined)
      this.transcript.note(at, 'client', `ignores ${isResponse ? 'the late response' : 'the message'} for ${view.name}: it cancelled`);
    else if (view.abandonedAt !== undefined)
      this.transcript.note(
        at,
        'client',
        `ignores ${isResponse ? 'the late response' : 'the message'} for ${view.name}: it stopped waiting`,
      );
  }
}
