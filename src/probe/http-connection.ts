import { connect } from 'node:net';
import { factsOf } from '../spec/revision-facts.js';
import { type Call, Connection, type SentNotification } from './connection.js';
import type { HttpEndpoint } from './request-headers.js';
import { SseParser } from '../protocol/sse-parser.js';
import type { WireLog } from './wire-log.js';
import { HTTP_HEADER_KEYS, HTTP_HEADERS, MCP_NAME_SOURCE, SSE_CONTENT_TYPE } from '../protocol/http-headers.js';
import { METHODS } from '../protocol/methods.js';

/** The methods about one task, whose Mcp-Name header carries its id where the revision has routing headers. */
const TASK_METHODS: ReadonlySet<string> = new Set([METHODS.tasksGet, METHODS.tasksUpdate, METHODS.tasksCancel]);
/** A JSON response body longer than this is not read. */
const MAX_JSON_BODY = 4 * 1024 * 1024;
/** An SSE event (or a line without an end) longer than this ends the stream. */
const MAX_SSE_EVENT = 1024 * 1024;
/** How much of an error body the report quotes. */
const MAX_ERROR_BODY = 2 * 1024;
/** Server-sent messages per probe beyond which the server floods. */
const MAX_MESSAGES = 100_000;

/**
 * The server at a Streamable HTTP endpoint. Each request is its own POST; its answer (JSON, or an SSE stream
 * read incrementally within bounds) feeds that request's inbox, and a message about another request seen on
 * it is recorded as such. Closing a request's stream is aborting its fetch. Waiting for response headers is
 * bounded. Only the URL given on the probe's command line is ever contacted, each request with the headers added
 * there (`--header`), whose values no log or record holds.
 */
export class HttpConnection extends Connection {
  readonly #url: URL;
  /** The headers the user added (`--header`), sent on every request, as fetch takes them. */
  readonly #added: Readonly<Record<string, string>>;
  readonly #aborts = new Set<AbortController>();
  #messages = 0;
  /** The server answered at least once: a refused connection from then on means it is gone. */
  #reached = false;
  /** The probe is closing the connection: every stream it aborts now, it closed. */
  #closing = false;

  constructor(
    endpoint: HttpEndpoint,
    log: WireLog,
    clock: () => number,
    private readonly headersTimeoutMs = 10_000,
  ) {
    super('streamable-http', log, clock);
    this.#url = endpoint.url;
    this.#added = Object.fromEntries(endpoint.headers.map((header) => [header.name, header.value]));
  }

  get url(): URL {
    return this.#url;
  }

  headersFor(message: Record<string, unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.#added,
      'Content-Type': 'application/json',
      Accept: `application/json, ${SSE_CONTENT_TYPE}`,
    };
    const method = message['method'];
    if (method !== METHODS.initialize) headers[HTTP_HEADERS.protocolVersion] = this.revision;
    if (this.sessionId !== undefined) headers[HTTP_HEADERS.sessionId] = this.sessionId;
    if (factsOf(this.revision)['http-routing-headers'].value && typeof method === 'string') {
      headers[HTTP_HEADERS.method] = method;
      const params = message['params'] as { name?: unknown; uri?: unknown; taskId?: unknown } | undefined;
      // Requests about a task name it (params.taskId), so that a load balancer can route them to the instance holding it.
      const name = TASK_METHODS.has(method) ? params?.taskId : (params?.name ?? params?.uri);
      if (typeof name === 'string' && (TASK_METHODS.has(method) || Object.hasOwn(MCP_NAME_SOURCE, method)))
        headers[HTTP_HEADERS.name] = name;
    }
    return headers;
  }

  async send(message: Record<string, unknown>, owner: string): Promise<Call> {
    const abort = new AbortController();
    let closedByProbe = false;
    const exchange = this.#open(message, owner);
    const call = this.register(message, owner, () => {
      if (closedByProbe) return true;
      closedByProbe = true;
      abort.abort();
      this.log.add('→', `[closes the response stream of request ${call.id}]`);
      this.recording?.closed(exchange, 'client', owner);
      return true;
    });
    if (exchange !== undefined) call.exchange = exchange;
    this.#aborts.add(abort);
    this.log.sent(`POST ${JSON.stringify(message)}`);
    const response = await this.#post(message, abort, (reason) => call.inbox.fail(reason));
    if (response === undefined) {
      if (closedByProbe) call.inbox.close('the probe closed the stream');
      // No response: the probe gave up waiting for its headers (it aborted), or the connection failed.
      else this.recording?.closed(exchange, abort.signal.aborted ? 'client' : 'server', owner);
      this.#aborts.delete(abort);
      return call;
    }
    call.headers = Object.fromEntries(response.headers);
    this.recording?.response(exchange, response.status, call.headers, owner);
    if (message['method'] === METHODS.initialize && call.headers[HTTP_HEADER_KEYS.sessionId] !== undefined)
      this.sessionId = call.headers[HTTP_HEADER_KEYS.sessionId];
    this.log.note(`HTTP ${response.status} ${call.headers['content-type'] ?? '(no content type)'} for ${call.method} (id ${call.id})`);
    void this.#consume(response, call, abort, () => closedByProbe).finally(() => this.#aborts.delete(abort));
    return call;
  }

  async notify(message: Record<string, unknown>, owner: string): Promise<SentNotification> {
    const sent = this.sentNotification(message, owner);
    const exchange = this.#open(message, owner);
    this.log.sent(`POST ${JSON.stringify(message)}`);
    const abort = new AbortController();
    const response = await this.#post(message, abort, (reason) => (sent.answer = { text: reason, at: this.clock() }));
    if (response === undefined) {
      this.recording?.closed(exchange, abort.signal.aborted ? 'client' : 'server', owner);
      return sent;
    }
    this.recording?.response(exchange, response.status, response.headers, owner);
    const body = (await readBounded(response, MAX_ERROR_BODY)).text.trim();
    this.recording?.closed(exchange, 'server', owner);
    this.log.add('←', `HTTP ${response.status}${body === '' ? '' : ` ${body}`}`);
    if (response.status >= 400 || body !== '')
      sent.answer = { text: `HTTP ${response.status}${body === '' ? '' : `: ${body}`}`, at: this.clock() };
    return sent;
  }

  /** A plain GET on the endpoint, as a client opening a standalone stream would. */
  async get(): Promise<{ status: number; headers: Record<string, string> } | { failed: string }> {
    this.log.add('→', `GET ${this.#url.pathname}`);
    const owner = this.owner;
    const exchange = this.recording?.open('GET', owner, this.revision);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), Math.min(this.headersTimeoutMs, 5000));
    try {
      const response = await fetch(this.#url, {
        method: 'GET',
        headers: {
          ...this.#added,
          Accept: SSE_CONTENT_TYPE,
          [HTTP_HEADERS.protocolVersion]: this.revision,
          ...(this.sessionId === undefined ? {} : { [HTTP_HEADERS.sessionId]: this.sessionId }),
        },
        signal: abort.signal,
      });
      const headers = Object.fromEntries(response.headers);
      this.log.add('←', `HTTP ${response.status} ${headers['content-type'] ?? ''}`.trim());
      abort.abort();
      this.recording?.response(exchange, response.status, headers, owner);
      this.recording?.closed(exchange, 'client', owner);
      return { status: response.status, headers };
    } catch (error) {
      this.recording?.closed(exchange, abort.signal.aborted ? 'client' : 'server', owner);
      this.#gone(error);
      const failed = abort.signal.aborted ? 'no answer to the GET within 5 s' : `the GET failed: ${describeFetchError(error)}`;
      this.log.note(failed);
      return { failed };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.lag.stop();
    this.#closing = true;
    for (const abort of this.#aborts) abort.abort();
    this.#aborts.clear();
    await this.endSession();
  }

  /**
   * A session the server gave an id ends with a DELETE of it (a client that no longer needs it SHOULD say so);
   * what came of it in a sentence, or nothing when there was no session to end.
   */
  async endSession(): Promise<string | undefined> {
    if (this.sessionId === undefined || this.fatal !== undefined) return undefined;
    const session = this.sessionId;
    this.sessionId = undefined;
    // The session id is named, never shown: like a credential, it lets whoever has it act in the session.
    this.log.add('→', `DELETE ${this.#url.pathname} (with the session's Mcp-Session-Id)`);
    const owner = this.owner;
    const exchange = this.recording?.open('DELETE', owner, this.revision);
    try {
      const response = await fetch(this.#url, {
        method: 'DELETE',
        headers: { ...this.#added, [HTTP_HEADERS.sessionId]: session, [HTTP_HEADERS.protocolVersion]: this.revision },
        signal: AbortSignal.timeout(2000),
      });
      await response.body?.cancel();
      this.log.add('←', `HTTP ${response.status}`);
      this.recording?.response(exchange, response.status, response.headers, owner);
      // The probe does not read the DELETE's body: it closes the exchange itself.
      this.recording?.closed(exchange, 'client', owner);
      return response.status === 405
        ? 'the probe ended its session with DELETE: HTTP 405 (the server does not let clients end sessions)'
        : `the probe ended its session with DELETE: HTTP ${response.status}`;
    } catch (error) {
      this.recording?.closed(exchange, (error as Error).name === 'TimeoutError' ? 'client' : 'server', owner);
      return `the DELETE that ends the probe's session got no answer: ${describeFetchError(error)}`;
    }
  }

  protected answerServerRequest(message: Record<string, unknown>): void {
    const answer = this.answerTo(message);
    const owner = this.owner;
    const exchange = this.#open(answer, owner);
    this.log.sent(`POST ${JSON.stringify(answer)}`);
    const abort = new AbortController();
    void this.#post(answer, abort, () => undefined).then((response) => {
      if (response !== undefined) this.recording?.response(exchange, response.status, response.headers, owner);
      // The probe does not read the body of this answer's POST: it closes the exchange (or gave up on its headers).
      this.recording?.closed(exchange, response !== undefined || abort.signal.aborted ? 'client' : 'server', owner);
      return response?.body?.cancel();
    });
  }

  /** Opens the recording's exchange for a POST of `message`, and records the message on it. */
  #open(message: Record<string, unknown>, owner: string): string | undefined {
    if (this.recording === undefined) return undefined;
    const exchange = this.recording.open('POST', owner, this.headersFor(message)[HTTP_HEADERS.protocolVersion]);
    this.recording.message('client', message, owner, exchange);
    return exchange;
  }

  /** POSTs a message; undefined when no response came (the reason goes to `failed`), with response headers bounded in time. */
  async #post(message: Record<string, unknown>, abort: AbortController, failed: (reason: string) => void): Promise<Response | undefined> {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.headersTimeoutMs);
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: this.headersFor(message),
        body: JSON.stringify(message),
        signal: abort.signal,
      });
      this.#reached = true;
      return response;
    } catch (error) {
      this.#gone(error);
      if (timedOut) failed(`no response headers within ${this.headersTimeoutMs} ms`);
      else if (!abort.signal.aborted) failed(`the POST failed: ${describeFetchError(error)}`);
      this.log.note(
        timedOut
          ? `no response headers within ${this.headersTimeoutMs} ms: the probe gave up on the request`
          : `the POST failed: ${describeFetchError(error)}`,
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A server that answered before and now refuses connections has stopped: nothing more can be checked. */
  #gone(error: unknown): void {
    if (this.#reached && (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED')
      this.end(`the server stopped: ${this.#url.host} refuses connections it accepted before (connection refused)`);
  }

  async #consume(response: Response, call: Call, abort: AbortController, closedByProbe: () => boolean): Promise<void> {
    const type = response.headers.get('content-type') ?? '';
    // The exchange's end, as the recording tells it: the probe closed it, or the server ended or broke it.
    const ended = (by: 'client' | 'server') => this.recording?.closed(call.exchange, by, call.owner);
    const fail = (reason: string) => {
      this.log.note(`request ${call.id}: ${reason}`);
      call.inbox.fail(reason);
      abort.abort();
      ended('client');
    };
    try {
      if (response.status >= 400) {
        const body = (await readBounded(response, MAX_ERROR_BODY)).text.trim();
        ended('server');
        return fail(`the server answered HTTP ${response.status}${body === '' ? '' : `: ${body.slice(0, 300)}`}`);
      }
      if (response.status === 202 || response.body === null) {
        ended('server');
        return fail(`the server answered HTTP ${response.status} with no body: a request needs a response`);
      }
      if (type.startsWith(SSE_CONTENT_TYPE)) {
        // An event with empty data carries no message: 2025-11-25 servers send one first, to prime the client's Last-Event-ID.
        const parser = new SseParser((event) => event.data.trim() === '' || this.#deliver(event.data, call), MAX_SSE_EVENT);
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          parser.push(decoder.decode(chunk, { stream: true }));
          if (parser.oversized > 0) return fail(`the server sent an SSE event or line over ${MAX_SSE_EVENT} characters`);
          if (this.fatal !== undefined) return fail(this.fatal);
        }
        parser.push(decoder.decode());
        parser.end();
        ended('server');
        call.inbox.close('the server ended the response stream');
        return;
      }
      if (!type.startsWith('application/json'))
        return fail(
          `the server answered HTTP ${response.status} with the content type ${type || '(none)'}, neither JSON nor an SSE stream`,
        );
      const body = await readBounded(response, MAX_JSON_BODY);
      if (body.over) return fail(`the server sent a response body over ${MAX_JSON_BODY} bytes`);
      const delivered = body.text.trim() === '' || this.#deliver(body.text, call);
      ended('server');
      if (!delivered) return fail(`the response body is not JSON: ${JSON.stringify(body.text.slice(0, 120))}`);
      call.inbox.close(`HTTP ${response.status} response complete`);
    } catch (error) {
      ended(closedByProbe() || this.#closing ? 'client' : 'server');
      if (closedByProbe()) call.inbox.close('the probe closed the stream');
      else if (await refusesConnections(this.#url)) {
        // The stream broke because the server is gone: that is the one reason, for this request and every later check.
        const reason = `the server stopped: the response stream of request ${call.id} broke and ${this.#url.host} now refuses connections`;
        this.end(reason);
        call.inbox.fail(reason);
      } else call.inbox.fail(`the response stream broke: ${describeFetchError(error)}`);
    }
  }

  /** Routes the JSON of a body or an SSE event; false when it is not JSON. */
  #deliver(text: string, stream: Call): boolean {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.notJsonRpc(text);
      this.recording?.text(text, stream.owner, stream.exchange);
      this.log.add('←', `(not JSON) ${text.slice(0, 200)}`);
      return false;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (message === null || typeof message !== 'object' || Array.isArray(message)) {
        this.notJsonRpc(JSON.stringify(message));
        continue;
      }
      if (++this.#messages > MAX_MESSAGES) {
        this.end(`the server flooded the probe with over ${MAX_MESSAGES} messages`);
        return true;
      }
      this.log.received(message);
      this.route(message as Record<string, unknown>, stream);
    }
    return true;
  }
}

/** Whether nothing listens any more at the endpoint's host and port (a TCP connection is refused within 1 s). */
function refusesConnections(url: URL): Promise<boolean> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (refused: boolean) => {
      socket.destroy();
      resolve(refused);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(false));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}

/** Reads a body up to `limit` bytes; beyond that it stops reading (the caller aborts the request), saying so. */
async function readBounded(response: Response, limit: number): Promise<{ text: string; over: boolean }> {
  if (response.body === null) return { text: '', over: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { text: new TextDecoder().decode(Buffer.concat(chunks)), over: true };
    }
    chunks.push(value);
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), over: false };
}

/** A fetch failure in words: undici hides the reason (connection refused, unknown host) in `cause`. */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the server closed the connection';
  if (cause?.message === 'bad port')
    return 'the port is one the Fetch standard blocks (reserved for another protocol, such as 9, 25 or 6000): serve the endpoint on another port';
  return cause?.message ?? (error as Error).message;
}
