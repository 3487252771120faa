import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Party } from '../judges/session-transcript.js';
import { type GuardedListener, refusalBody, refusalOf } from '../listener/request-guard.js';
import { responseRecord, type StreamRecord } from '../judges/stream-records.js';
import { SseParser } from '../protocol/sse-parser.js';
import { HOP_BY_HOP, type HttpEndpoint } from '../probe/request-headers.js';
import { createListener, LISTENER_LIMITS, type ListenerLimits } from '../recording/http-listener.js';
import { BodyTap, TapBudget } from './body-tap.js';
import { MAX_RECORDED_LINE } from './line-tap.js';
import { HTTP_HEADER_KEYS, SSE_CONTENT_TYPE } from '../protocol/http-headers.js';

/**
 * What the relay reports as it passes: each message (who sent it, its text, whether it was cut, its stream), and each
 * exchange's request, response headers and end.
 */
export interface RelayTap {
  message(from: Party, text: string, cut: boolean, stream: string, eventId?: string): void;
  stream(from: Party, stream: string, record: StreamRecord): void;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What a trace keeps of a request's headers: the protocol version and Last-Event-ID, nothing else. */
function requestRecord(method: string, headers: IncomingHttpHeaders): StreamRecord {
  const protocolVersion = headerText(headers[HTTP_HEADER_KEYS.protocolVersion]);
  const lastEventId = headerText(headers[HTTP_HEADER_KEYS.lastEventId]);
  return {
    request: {
      method,
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
      ...(lastEventId === undefined ? {} : { lastEventId }),
    },
  };
}

function upstreamResponseRecord(response: IncomingMessage): StreamRecord {
  return responseRecord(response.statusCode ?? 0, (name) => headerText(response.headers[name]));
}

/** The relay's limits: its listener's, and how long a kept-alive connection to the upstream may sit idle (ms). */
export interface RelayLimits extends ListenerLimits {
  readonly upstreamIdleMs: number;
}

/**
 * Idle upstream connections are closed after 4 s: before a server closes them itself (Node's and uvicorn's default is
 * 5 s), so that a request is never sent on a connection the server is closing at that moment (ECONNRESET, a 502 to the
 * host). Node's agent takes a server's `Keep-Alive: timeout` hint only when it has a timeout of its own.
 */
export const RELAY_LIMITS: RelayLimits = { ...LISTENER_LIMITS, upstreamIdleMs: 4000 };

/** Where the relay listens: loopback unless the user names another address. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface HttpRelay {
  /** The endpoint a host connects to: the listening address with the upstream endpoint's path. */
  readonly url: string;
  /** Stops listening and ends every open connection (streams included). */
  close(): Promise<void>;
}

function forwarded(headers: IncomingHttpHeaders, drop: readonly string[] = []): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !drop.includes(name)) kept[name] = value;
  return kept;
}

/** The upstream URL a request goes to: the same path on the upstream's origin; the endpoint's own query kept for it. */
export function upstreamTarget(upstream: URL, requestPath: string): URL {
  const target = new URL(requestPath, upstream.origin);
  if (target.pathname === upstream.pathname && target.search === '') target.search = upstream.search;
  return target;
}

/**
 * A Streamable HTTP relay: each request the host sends is forwarded to the same path on `upstream` (method, body and
 * headers as sent, except hop-by-hop ones and `accept-encoding` — the relay must read what it passes, so responses come
 * uncompressed); each response (JSON or an SSE stream) is passed back as its bytes arrive. A copy of every message
 * goes to `tap` with its stream ("POST 3": the third request, a POST, and everything the server sent on its
 * response): the client's POST bodies, the server's JSON bodies and SSE events (an event over the recording bound
 * cut). Of the headers only the few the judges read are tapped (`requestRecord`, `upstreamResponseRecord`), never a
 * credential, cookie or session id. Each exchange's end is tapped with who ended it: the host closing a response
 * ends the upstream request (a 2026-07-28 cancellation is exactly that). A request whose Host or Origin `guarded`
 * refuses gets 403 with a JSON-RPC error and is neither forwarded nor recorded: a page that rebinds a name to this
 * machine never reaches the upstream (which would see only the relay's own Host). The headers the user added
 * (`--header`) go on every upstream request in place of the host's of the same name; they are never tapped either.
 */
export function startHttpRelay(
  endpoint: HttpEndpoint,
  listen: ListenAddress,
  tap: RelayTap,
  guarded: GuardedListener,
  limits: RelayLimits = RELAY_LIMITS,
): Promise<HttpRelay> {
  const upstream = endpoint.url;
  // In lower case, as Node names a request's headers: spread after the host's, each replaces the host's of its name.
  const added = Object.fromEntries(endpoint.headers.map((header) => [header.name.toLowerCase(), header.value]));
  const secure = upstream.protocol === 'https:';
  // The agent's timeout is an idle socket's: one in use (an SSE stream silent for minutes) is only told, never closed.
  const kept = { keepAlive: true, timeout: limits.upstreamIdleMs };
  const agent = secure ? new HttpsAgent(kept) : new HttpAgent(kept);
  const send = secure ? httpsRequest : httpRequest;
  let requests = 0;
  const budget = new TapBudget();

  const relay = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const refusal = refusalOf(guarded.guard, incoming.headers.host, incoming.headers.origin);
    if (refusal !== undefined) {
      guarded.refused(refusal);
      outgoing.writeHead(403, { 'content-type': 'application/json', connection: 'close' }).end(refusalBody(refusal));
      return;
    }
    const method = incoming.method ?? 'GET';
    const stream = `${method} ${++requests}`;
    const target = upstreamTarget(upstream, incoming.url ?? '/');
    const upstreamRequest = send(target, {
      method,
      agent,
      headers: { ...forwarded(incoming.headers, ['accept-encoding']), ...added, host: target.host },
    });
    tap.stream('client', stream, requestRecord(method, incoming.headers));
    let closedBy: Party | undefined;
    const closed = (by: Party) => {
      if (closedBy !== undefined) return;
      closedBy = by;
      tap.stream(by, stream, { closed: true });
    };
    if (method === 'POST') {
      const clientBody = new BodyTap(budget);
      incoming.on('data', (chunk: Buffer) => clientBody.write(chunk));
      incoming.on('close', () => clientBody.release());
      incoming.on('end', () => {
        const body = clientBody.end();
        if (body.text.trim() !== '') tap.message('client', body.text, body.cut, stream);
      });
    }
    incoming.pipe(upstreamRequest);
    upstreamRequest.on('response', (response) => {
      tap.stream('server', stream, upstreamResponseRecord(response));
      outgoing.writeHead(response.statusCode ?? 502, response.statusMessage, forwarded(response.headers));
      outgoing.flushHeaders();
      const type = String(response.headers['content-type'] ?? '').toLowerCase();
      if (type.startsWith(SSE_CONTENT_TYPE)) {
        const decoder = new StringDecoder('utf8');
        const events = new SseParser(
          (event) => tap.message('server', event.data, event.cut === true, stream, event.id),
          MAX_RECORDED_LINE,
          true,
        );
        response.on('data', (chunk: Buffer) => events.push(decoder.write(chunk)));
        response.on('end', () => {
          events.push(decoder.end());
          events.end();
        });
      } else if (type.includes('json')) {
        const body = new BodyTap(budget);
        response.on('data', (chunk: Buffer) => body.write(chunk));
        response.on('close', () => body.release());
        response.on('end', () => {
          const { text, cut } = body.end();
          if (text.trim() !== '') tap.message('server', text, cut, stream);
        });
      }
      response.pipe(outgoing);
      response.on('end', () => closed('server'));
      // The upstream broke the response before its end: the server ended the exchange, and so does the relay.
      const broke = () => {
        if (response.complete) return;
        closed('server');
        outgoing.destroy();
      };
      response.on('error', broke);
      response.on('close', broke);
    });
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      if (closedBy === 'client') return;
      closed('server');
      if (outgoing.destroyed) return;
      if (outgoing.headersSent) outgoing.destroy();
      else {
        outgoing.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        outgoing.end(`mcprely proxy: the upstream server ${upstream.origin} did not answer (${error.code ?? error.message})\n`);
      }
    });
    // A 101 (Switching Protocols) is no answer a Streamable HTTP relay can pass on: without this the host waited for ever.
    upstreamRequest.on('upgrade', (_response, socket: Duplex) => {
      socket.destroy();
      upstreamRequest.emit(
        'error',
        Object.assign(new Error('it switched protocols (101)'), { code: 'an unexpected 101 Switching Protocols' }),
      );
    });
    // The host went away before the response ended (it cancelled, or gave up): so does the upstream request.
    outgoing.on('close', () => {
      if (outgoing.writableFinished) return;
      closed('client');
      upstreamRequest.destroy();
    });
  };

  const server: Server = createListener(relay, limits);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : listen.port;
      const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
      resolve({
        url: `http://${host}:${port}${upstream.pathname}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
