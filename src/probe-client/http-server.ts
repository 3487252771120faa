import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { responseRecord } from '../judges/stream-records.js';
import type { GuardedListener } from '../listener/request-guard.js';
import { createListener, LISTENER_LIMITS, type ListenerLimits } from '../recording/http-listener.js';
import { traceOpenProblem } from '../recording/session-recorder.js';
import { fact } from '../spec/revision-facts.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { HTTP_HEADERS, HTTP_HEADER_KEYS, SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';
import {
  type ListenAt,
  listenOn,
  MAX_BODY,
  mcpHeaders,
  REFUSAL_STATUS,
  readBody,
  refusedByGuard,
  sessionless,
  sseFrame,
} from '../mcp-serving/http-exchange.js';
import type { ScenarioCall } from './scenario-call.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import { mayLog } from './scenario-protocol.js';
import { ScenarioSession } from './scenario-session.js';
import type { ScenarioTiming } from './scenarios.js';
import { METHODS } from '../protocol/methods.js';

/**
 * The most calls one session runs at once. A call the client left runs on until its answer or the hold (2 minutes by
 * default), its progress kept for a resumption: 2 000 such calls grew the server by 20 MB a second. A client needs a
 * few at once (one per scenario); past the bound a call is answered at once with an error that says so, and other
 * sessions are served as before.
 */
export const MAX_RUNNING_CALLS = 16;

/**
 * The most sessions one run opens: a runaway client (one that initializes again on every error) is refused, not served
 * for ever. Each session is a trace file kept open, a verdict in the report and a page, and is judged again at each
 * live pass; a client needs one to a few sessions to exercise every scenario (eight, plus reconnects), so 64 leaves it
 * ample room while a loop hits the bound within seconds. A refusal costs nothing kept (a 503, no session).
 */
export const MAX_SESSIONS = 64;

/**
 * One SSE event a call sent, kept for a resumption: its id (when the scenario gives ids), its message, and whether it
 * reached a stream (and the trace) already.
 */
interface SentEvent {
  readonly id?: string;
  readonly message: JsonObject;
  delivered: boolean;
}

/** A scenario call over HTTP: the stream it is written to now (its POST's, a resumed GET's, or none), and every event it sent. */
interface HttpCall {
  readonly session: ScenarioSession;
  readonly scenarioCall: ScenarioCall;
  readonly events: SentEvent[];
  stream: { readonly id: string; readonly res: ServerResponse } | undefined;
  answered: boolean;
}

/**
 * The scenario server over Streamable HTTP, on loopback unless told. Each revision as the client offers it:
 * `initialize` opens a session with an `Mcp-Session-Id` (its POSTed `notifications/cancelled` cancels; a GET with
 * `Last-Event-ID` resumes a dropped stream; an id that is not a live session's is answered 404), `server/discover`
 * the stateless revision (closing a call's stream is its cancellation; GET and DELETE answer 405). A scenario call's
 * answer and progress go on its POST's SSE stream. Every exchange is recorded in its session's trace: the request,
 * the response's headers, who closed it. A request whose Host or Origin the guard refuses (another name for this
 * machine, a page of another origin: DNS rebinding) gets 403 with a JSON-RPC error, and no session sees it.
 */
export class ScenarioHttpServer {
  readonly #server: Server;
  readonly #sessions = new Map<string, ScenarioSession>();
  /** The session of requests that name none (the stateless revision). */
  #stateless: ScenarioSession | undefined;
  readonly #byEventId = new Map<string, HttpCall>();
  /** The calls started that may still run, each with its session (pruned as they are counted). */
  readonly #running = new Map<ScenarioCall, ScenarioSession>();
  readonly #order: ScenarioSession[] = [];
  /** Why a session's trace could not be written, in words (the session is still served and judged). */
  readonly traceProblems: string[] = [];
  #exchange = 0;
  #eventCount = 0;

  constructor(
    private readonly timing: ScenarioTiming,
    private readonly recordPath: (index: number) => string | undefined,
    private readonly guarded: GuardedListener,
    limits: ListenerLimits = LISTENER_LIMITS,
  ) {
    this.#server = createListener((req, res) => {
      this.#route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    }, limits);
  }

  /** How many calls of `session` run now. */
  #callsRunning(session: ScenarioSession): number {
    let count = 0;
    for (const [call, of] of this.#running)
      if (!call.running) this.#running.delete(call);
      else if (of === session) count++;
    return count;
  }

  /** Listens; the endpoint's URL. */
  listen(at: ListenAt): Promise<string> {
    return listenOn(this.#server, at);
  }

  /** Every session so far, in the order they began. */
  get sessions(): readonly ScenarioSession[] {
    return this.#order;
  }

  /** Ends every session (`reason`) and stops listening; open streams are cut. */
  async close(reason: string): Promise<void> {
    for (const session of this.#order) session.end(reason);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #newSession(label: string): ScenarioSession {
    const path = this.recordPath(this.#order.length);
    let session: ScenarioSession;
    try {
      session = new ScenarioSession(label, 'streamable-http', this.timing, path);
    } catch (error) {
      this.traceProblems.push(`cannot write the trace ${path}: ${traceOpenProblem(error)}`);
      session = new ScenarioSession(label, 'streamable-http', this.timing);
    }
    this.#order.push(session);
    return session;
  }

  /** The session a request names by its `Mcp-Session-Id` (undefined: one that is not ours, or ended), else the stateless one. */
  #sessionOf(req: IncomingMessage): ScenarioSession | undefined {
    const named = req.headers[HTTP_HEADER_KEYS.sessionId];
    if (typeof named === 'string' && named !== '') {
      const session = this.#sessions.get(named);
      return session === undefined || session.ended ? undefined : session;
    }
    this.#stateless ??= this.#newSession('stateless');
    return this.#stateless;
  }

  /** The revision a request speaks: its MCP-Protocol-Version header, else its session's, else the most deployed. */
  #revisionOf(req: IncomingMessage, session: ScenarioSession | undefined): SpecVersion {
    const header = req.headers[HTTP_HEADER_KEYS.protocolVersion];
    return isSpecVersion(header) ? header : (session?.revision ?? MOST_DEPLOYED_REVISION);
  }

  /** Opens the record of one exchange in `session`; its stream id. */
  #open(session: ScenarioSession, req: IncomingMessage): string {
    const id = `${req.method} ${++this.#exchange}`;
    const protocolVersion = req.headers[HTTP_HEADER_KEYS.protocolVersion];
    const lastEventId = req.headers[HTTP_HEADER_KEYS.lastEventId];
    session.recorder.stream('client', id, {
      request: {
        method: String(req.method),
        ...(typeof protocolVersion === 'string' ? { protocolVersion } : {}),
        ...(typeof lastEventId === 'string' ? { lastEventId } : {}),
      },
    });
    return id;
  }

  /** Writes a response's head and records it. */
  #head(session: ScenarioSession, stream: string, res: ServerResponse, status: number, headers: Record<string, string>): void {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.writeHead(status);
    session.recorder.stream(
      'server',
      stream,
      responseRecord(status, (name) => res.getHeader(name)?.toString()),
    );
  }

  /** Ends a response and records that the server closed it. */
  #end(session: ScenarioSession, stream: string, res: ServerResponse, body?: string): void {
    res.end(body);
    if (!session.ended) session.recorder.stream('server', stream, { closed: true });
  }

  /** Records the client's closing of a response the server had not ended. */
  #watchClose(session: ScenarioSession, stream: string, res: ServerResponse, then: () => void = () => undefined): void {
    res.once('close', () => {
      if (res.writableEnded || session.ended) return;
      session.recorder.stream('client', stream, { closed: true });
      then();
    });
  }

  /** Writes an event of `call` to its stream, recorded the first time it reaches one (a replay is not a second message). */
  #deliver(call: HttpCall, event: SentEvent): void {
    const target = call.stream;
    if (target === undefined) return;
    if (!event.delivered) call.session.sent(event.message, target.id, event.id);
    event.delivered = true;
    target.res.write(sseFrame(event));
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedByGuard(this.guarded, req, res)) return;
    if (req.method === 'POST') return this.#post(req, res);
    const session = this.#sessionOf(req);
    if (session === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no live session has that Mcp-Session-Id: initialize again\n');
      return;
    }
    const stream = this.#open(session, req);
    const revision = this.#revisionOf(req, session);
    if (
      req.method === 'GET' &&
      fact(revision, 'last-event-id-resumption').value === true &&
      typeof req.headers[HTTP_HEADER_KEYS.lastEventId] === 'string'
    )
      return this.#resume(session, stream, String(req.headers[HTTP_HEADER_KEYS.lastEventId]), res);
    if (req.method === 'DELETE' && fact(revision, 'http-sessions').value === true && session !== this.#stateless) {
      this.#head(session, stream, res, 200, {});
      this.#end(session, stream, res);
      session.end('the client ended its session (DELETE)');
      return;
    }
    // No GET stream of its own to offer (a server MAY answer 405), no session to delete on a revision without them.
    this.#head(session, stream, res, 405, { Allow: 'POST' });
    this.#end(session, stream, res);
  }

  async #post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY);
    if (body === undefined) {
      res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' }).write('a message is at most 4 MiB\n');
      // Closed once the rest of the body is in (read and dropped): closing with the client's bytes unread resets the
      // connection, and the client would never read the 413.
      if (req.complete) res.end();
      else req.once('end', () => res.end());
      return;
    }
    const text = body.toString('utf8');
    let message: unknown;
    let parsed = true;
    try {
      message = JSON.parse(text);
    } catch {
      parsed = false;
    }
    const isInitialize =
      parsed && typeof message === 'object' && message !== null && (message as JsonObject)['method'] === METHODS.initialize;
    if (isInitialize && this.#order.length >= MAX_SESSIONS) {
      res
        .writeHead(503, { 'Content-Type': 'text/plain' })
        .end(`mcprely probe-client serves at most ${MAX_SESSIONS} sessions a run: end this run (its report) and start another\n`);
      return;
    }
    let session = isInitialize ? this.#newSession(`session ${this.#order.length + 1}`) : this.#sessionOf(req);
    // A revision without sessions ignores an Mcp-Session-Id that names none of ours: its request is the stateless session's.
    if (session === undefined && sessionless(mcpHeaders(req))) {
      this.#stateless ??= this.#newSession('stateless');
      session = this.#stateless;
    }
    if (session === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no live session has that Mcp-Session-Id: initialize again\n');
      return;
    }
    const stream = this.#open(session, req);
    const json = (status: number, unshaped: JsonObject, headers: Record<string, string> = {}) => {
      const body = session.shaped(unshaped);
      this.#head(session, stream, res, status, { 'Content-Type': 'application/json', ...headers });
      session.sent(body, stream);
      this.#end(session, stream, res, JSON.stringify(body));
    };
    if (!parsed || Array.isArray(message) || typeof message !== 'object' || message === null) {
      session.receiveText(text, stream);
      return json(
        400,
        errorReply(null, parsed ? ERROR_CODES.invalidRequest : ERROR_CODES.parseError, 'the body is one JSON-RPC message (an object)'),
      );
    }
    const handled = session.receive(message, stream, mcpHeaders(req));
    const revision = this.#revisionOf(req, session);
    // A client that skips the handshake (the stateless revision allows it) speaks the revision of its header.
    session.revision ??= isSpecVersion(req.headers[HTTP_HEADER_KEYS.protocolVersion]) ? revision : undefined;
    if (handled.kind === 'reply') {
      const sessionHeader: Record<string, string> = {};
      // Only a handshake that settled a revision with sessions opens one (a refused initialize does not).
      if (isInitialize && handled.revision !== undefined && fact(handled.revision, 'http-sessions').value === true) {
        const id = randomUUID();
        this.#sessions.set(id, session);
        sessionHeader[HTTP_HEADERS.sessionId] = id;
      }
      return json(handled.refusal === undefined ? 200 : REFUSAL_STATUS[handled.refusal], handled.message, sessionHeader);
    }
    if (handled.kind === 'cancel' && fact(revision, 'http-cancel-signal').value === 'notification')
      session.call(handled.requestId)?.cancel();
    if (handled.kind !== 'call') {
      // A notification or a client's response: accepted, no body. Where closing is the signal, a POSTed cancellation changes nothing.
      this.#head(session, stream, res, 202, {});
      this.#end(session, stream, res);
      return;
    }
    if (this.#callsRunning(session) >= MAX_RUNNING_CALLS)
      return json(
        200,
        errorReply(
          handled.id,
          ERROR_CODES.internalError,
          `mcprely probe-client runs at most ${MAX_RUNNING_CALLS} calls of a session at once: end some first`,
        ),
      );
    this.#head(session, stream, res, 200, { ...SSE_RESPONSE_HEADERS });
    res.flushHeaders();
    const closeCancels = fact(revision, 'http-cancel-signal').value === 'close-stream';
    const plan = session.planOf(handled);
    let call: HttpCall | undefined;
    const keep = (event: SentEvent) => {
      if (call === undefined) return;
      call.events.push(event);
      if (event.id !== undefined) this.#byEventId.set(event.id, call);
      this.#deliver(call, event);
    };
    const scenarioCall = session.startCall(
      handled,
      {
        send: (unshaped, final) => {
          const reply = session.shaped(unshaped);
          if (call === undefined) {
            // Answered at once (a key seen before): on its own stream, which then ends.
            session.sent(reply, stream);
            res.write(sseFrame({ message: reply }));
            this.#end(session, stream, res);
            return;
          }
          keep({ ...(plan.eventIds ? { id: `${++this.#eventCount}` } : {}), message: reply, delivered: false });
          if (final) {
            call.answered = true;
            const target = call.stream;
            if (target !== undefined) {
              call.stream = undefined;
              this.#end(session, target.id, target.res);
            }
          }
        },
        drop: () => {
          const target = call?.stream;
          if (call === undefined || target === undefined) return;
          call.stream = undefined;
          this.#end(session, target.id, target.res);
          // Where a broken stream loses the request, the server stops its work with it.
          if (closeCancels) call.scenarioCall.stop();
        },
      },
      plan,
    );
    if (scenarioCall === undefined) return;
    this.#running.set(scenarioCall, session);
    call = { session, scenarioCall, events: [], stream: { id: stream, res }, answered: false };
    // How soon to reconnect after the drop (SSE `retry:`; not a message, so not recorded).
    if (plan.retryMs !== undefined) res.write(`retry: ${plan.retryMs}\n\n`);
    // A stream the server means to drop opens with an event that carries an id, so that it can be resumed whether or not
    // the call asked for progress: a log message (a notification every client accepts), recorded like any other. Only
    // where the client's log level lets a debug message through (on a revision that sets it per request, only when asked).
    if (plan.finish === 'drop' && plan.eventIds && mayLog(revision, 'debug', { session: session.logLevel, request: handled.logLevel }))
      keep({
        id: `${++this.#eventCount}`,
        message: {
          jsonrpc: '2.0',
          method: METHODS.message,
          params: { level: 'debug', logger: 'mcprely-probe-client', data: 'this stream will be dropped before the answer' },
        },
        delivered: false,
      });
    const owned = call;
    this.#watchClose(session, stream, res, () => {
      if (owned.stream?.res === res) owned.stream = undefined;
      // Closing the stream is the cancellation where the revision says so; elsewhere a disconnect, and the work goes on.
      if (closeCancels) owned.scenarioCall.cancel();
    });
  }

  /** A GET with Last-Event-ID: the call whose event it names gets this stream; what it sent after that event is replayed. */
  #resume(session: ScenarioSession, stream: string, lastEventId: string, res: ServerResponse): void {
    const call = this.#byEventId.get(lastEventId);
    if (call === undefined || call.session !== session) {
      this.#head(session, stream, res, 404, { 'Content-Type': 'text/plain' });
      this.#end(session, stream, res, 'no stream has that event id\n');
      return;
    }
    this.#head(session, stream, res, 200, { ...SSE_RESPONSE_HEADERS });
    res.flushHeaders();
    const previous = call.stream;
    if (previous !== undefined) this.#end(session, previous.id, previous.res);
    call.stream = { id: stream, res };
    // A cancelled call's events are dropped with it: what it produced before the cancellation is not sent after it.
    const after = call.events.findIndex((event) => event.id === lastEventId);
    if (!call.scenarioCall.cancelled) for (const event of call.events.slice(after + 1)) this.#deliver(call, event);
    // Nothing more will come for a call that is over (answered, or stopped by the client's cancellation).
    if (call.answered || !call.scenarioCall.running) {
      call.stream = undefined;
      this.#end(session, stream, res);
      return;
    }
    this.#watchClose(session, stream, res, () => {
      if (call.stream?.res === res) call.stream = undefined;
    });
  }
}
