import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { GuardedListener } from '../listener/request-guard.js';
import { createListener, LISTENER_LIMITS, type ListenerLimits } from '../recording/http-listener.js';
import { fact } from '../spec/revision-facts.js';
import { isSpecVersion, MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { HTTP_HEADERS, HTTP_HEADER_KEYS, SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';
import { METHODS } from '../protocol/methods.js';
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
import { CoalescingWriter, markedWithLoss, progressNotificationToken } from '../mcp-serving/coalescing-writer.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import { shapedForRevision } from '../mcp-serving/result-shape.js';
import { serveMessage, type ToolServer } from '../mcp-serving/served-message.js';
import { type McpCallRequest, mcprelyToolServer } from './mcprely-tool-server.js';
import { ToolCalls } from './tool-calls.js';

/**
 * The most sessions (of the revision with sessions) kept at once: an initialize past it ends the session least
 * recently used (its calls stopped), so that a client that never sends DELETE cannot grow the server without end.
 */
export const MAX_SESSIONS = 32;

interface HttpSession {
  readonly revision: SpecVersion;
  readonly calls: ToolCalls;
  used: number;
}

/**
 * `mcprely mcp --listen`: Streamable HTTP on one endpoint, either revision. `initialize` opens a session with an
 * `Mcp-Session-Id` (a POSTed `notifications/cancelled` cancels; DELETE ends it); the stateless revision needs none
 * (closing a call's stream is its cancellation). A tools/call is answered on an SSE stream: its progress, then its
 * result; everything else as JSON. GET answers 405 (no stream of the server's own). A request whose Host or Origin
 * the guard refuses gets 403; a body past 4 MiB 413; receiving a request is bounded in time (LISTENER_LIMITS).
 */
export class McpHttpServer {
  readonly #server: Server;
  readonly #tools: ToolServer<McpCallRequest>;
  readonly #sessions = new Map<string, HttpSession>();
  /** The open call streams and what waits for each. */
  readonly #streams = new Map<ServerResponse, CoalescingWriter>();
  readonly #stateless: ToolCalls;
  /** The calls running in every session. */
  readonly #work = { running: 0 };
  #uses = 0;

  constructor(
    private readonly workingFolder: string,
    version: string,
    private readonly guarded: GuardedListener,
    limits: ListenerLimits = LISTENER_LIMITS,
    tools: ToolServer<McpCallRequest> = mcprelyToolServer(version),
  ) {
    this.#tools = tools;
    this.#stateless = new ToolCalls(workingFolder, this.#work);
    this.#server = createListener((req, res) => {
      this.#route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    }, limits);
  }

  /**
   * What the open call streams hold for clients that do not read: messages waiting for a drain (at most the latest
   * progress and the answer per stream) and bytes in the responses' own buffers (at most what was written before one
   * said to stop).
   */
  get backlog(): { readonly held: number; readonly buffered: number } {
    let held = 0;
    let buffered = 0;
    for (const [res, writer] of this.#streams) {
      held += writer.held;
      buffered += res.writableLength;
    }
    return { held, buffered };
  }

  /** Listens; the endpoint's URL. */
  listen(at: ListenAt): Promise<string> {
    return listenOn(this.#server, at);
  }

  /** Stops every call and listening; open streams are cut. */
  async close(): Promise<void> {
    for (const session of this.#sessions.values()) session.calls.stopAll();
    this.#stateless.stopAll();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedByGuard(this.guarded, req, res)) return;
    if (req.method === 'POST') return this.#post(req, res);
    const named = req.headers[HTTP_HEADER_KEYS.sessionId];
    if (req.method === 'DELETE' && typeof named === 'string' && named !== '' && !sessionless(mcpHeaders(req))) {
      const session = this.#sessions.get(named);
      // A session that ended (or never was) is not found, as a POST naming it is.
      if (session === undefined) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no live session has that Mcp-Session-Id\n');
        return;
      }
      session.calls.stopAll();
      this.#sessions.delete(named);
      res.writeHead(200).end();
      return;
    }
    // No stream of the server's own to offer on GET (a server MAY answer 405), no session to delete otherwise.
    res.writeHead(405, { Allow: 'POST' }).end();
  }

  /** The session a request names: undefined for none (stateless), 'unknown' for an id that is not a live session's. */
  #sessionOf(req: IncomingMessage): HttpSession | undefined | 'unknown' {
    const named = req.headers[HTTP_HEADER_KEYS.sessionId];
    if (typeof named !== 'string' || named === '') return undefined;
    const session = this.#sessions.get(named);
    // A revision without sessions ignores an Mcp-Session-Id.
    if (session === undefined) return sessionless(mcpHeaders(req)) ? undefined : 'unknown';
    session.used = ++this.#uses;
    return session;
  }

  #openSession(revision: SpecVersion): string {
    if (this.#sessions.size >= MAX_SESSIONS) {
      const [oldest] = [...this.#sessions.entries()].sort(([, a], [, b]) => a.used - b.used);
      if (oldest !== undefined) {
        oldest[1].calls.stopAll();
        this.#sessions.delete(oldest[0]);
      }
    }
    const id = randomUUID();
    this.#sessions.set(id, { revision, calls: new ToolCalls(this.workingFolder, this.#work), used: ++this.#uses });
    return id;
  }

  async #post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY);
    if (body === undefined) {
      res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' }).write('a message is at most 4 MiB\n');
      // Closed once the rest of the body is in: closing with the client's bytes unread resets the connection.
      if (req.complete) res.end();
      else req.once('end', () => res.end());
      return;
    }
    const session = this.#sessionOf(req);
    if (session === 'unknown') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no live session has that Mcp-Session-Id: initialize again\n');
      return;
    }
    const header = req.headers[HTTP_HEADER_KEYS.protocolVersion];
    let revision: SpecVersion = isSpecVersion(header) ? header : (session?.revision ?? MOST_DEPLOYED_REVISION);
    const json = (status: number, message: JsonObject, headers: Record<string, string> = {}) => {
      res
        .writeHead(status, { 'Content-Type': 'application/json', ...headers })
        .end(JSON.stringify(shapedForRevision(message, revision, this.#tools.info)));
    };
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return json(400, errorReply(null, ERROR_CODES.parseError, 'Parse error: the body is one JSON-RPC message'));
    }
    if (Array.isArray(message) || typeof message !== 'object' || message === null)
      return json(400, errorReply(null, ERROR_CODES.invalidRequest, 'the body is one JSON-RPC message (an object)'));
    const served = serveMessage(this.#tools, message, { transport: 'streamable-http', headers: mcpHeaders(req) });
    if (served.kind === 'reply') {
      if (served.revision !== undefined) revision = served.revision;
      const opens =
        (message as JsonObject)['method'] === METHODS.initialize &&
        served.revision !== undefined &&
        fact(served.revision, 'http-sessions').value === true;
      const sessionHeader: Record<string, string> = opens ? { [HTTP_HEADERS.sessionId]: this.#openSession(revision) } : {};
      return json(served.refusal === undefined ? 200 : REFUSAL_STATUS[served.refusal], served.message, sessionHeader);
    }
    const calls = session?.calls ?? this.#stateless;
    if (served.kind === 'cancel' && fact(revision, 'http-cancel-signal').value === 'notification') calls.cancel(served.requestId);
    if (served.kind !== 'call') {
      // A notification or a client's response: accepted, no body.
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { ...SSE_RESPONSE_HEADERS });
    res.flushHeaders();
    let ended = false;
    // A client that does not read its stream: progress waits coalesced (the latest only), the answer after it, whole.
    const writer = new CoalescingWriter(res);
    this.#streams.set(res, writer);
    res.once('close', () => this.#streams.delete(res));
    const frame = (message: JsonObject) => sseFrame({ message: shapedForRevision(message, revision, this.#tools.info) });
    calls.start(served, {
      send: (sent) => {
        if (ended) return;
        const token = progressNotificationToken(sent);
        if (token !== undefined) writer.progress(token, frame(sent));
        else writer.message(frame(markedWithLoss(sent, writer.lostOf(served.token))));
      },
      end: () => {
        if (!ended) writer.whenFlushed(() => res.end());
        ended = true;
      },
    });
    const closeCancels = fact(revision, 'http-cancel-signal').value === 'close-stream';
    res.once('close', () => {
      if (ended) return;
      ended = true;
      // Closing the stream is the cancellation where the revision says so; elsewhere a disconnect is not one (the work
      // runs to its end, its answer has no stream to go to: this server keeps no events to resume).
      if (closeCancels) calls.cancel(served.id);
    });
  }
}
