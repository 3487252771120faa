import { fact, revisionsWhere } from '../spec/revision-facts.js';
import { isSpecVersion, type SpecVersion } from '../spec/revisions.js';
import type { Party, SessionMessage, SessionStream, SessionTranscript } from './session-transcript.js';
import { asRecord } from '../protocol/message-guards.js';
import { METHODS } from '../protocol/methods.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

/**
 * Requests that are meant to stay open until the client ends them (a 2026-07-28 `subscriptions/listen` stream): no
 * timeout applies, and closing them is their normal end, not a cancellation.
 */
export const LONG_LIVED_METHODS: ReadonlySet<string> = new Set(['subscriptions/listen']);

/**
 * When the server ended the stream that carried `request` before its answer, on a revision where a broken stream
 * loses the request (2026-07-28: the client sends it again under a new id, and there is nothing left to cancel).
 */
export function lostWithItsStreamAt(session: SessionIndex, request: SessionRequest): number | undefined {
  if (session.revision === undefined || request.sent.stream === undefined) return undefined;
  if (fact(session.revision, 'reissue-after-broken-stream').value !== 'new-request-id') return undefined;
  const closed = session.transcript.streams?.find((stream) => stream.id === request.sent.stream)?.closed;
  if (closed === undefined || closed.by !== 'server') return undefined;
  return request.response === undefined || request.response.at > closed.at ? closed.at : undefined;
}

/** Whether a request's `cancelled` is the client closing its stream (2026-07-28 HTTP), not a notification. */
export function cancelledByClosing(cancelled: SessionMessage): boolean {
  const message = cancelled.message;
  return typeof message === 'object' && message !== null && 'closedStream' in message;
}

/** A JSON-RPC id as a key: 1 and "1" are different ids. */
export type IdKey = string;

export function idKey(id: unknown): IdKey | undefined {
  return typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
}

/** One request of the session, with what the other party and its sender did about it. */
export interface SessionRequest {
  readonly id: string | number;
  readonly key: IdKey;
  readonly from: Party;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly sent: SessionMessage;
  /** `params._meta.progressToken`, when the sender asked for progress. */
  readonly progressToken?: string | number;
  /** The first response (result or error) the other party sent for it. */
  response?: SessionMessage;
  /** Its sender's first cancellation: `notifications/cancelled`, or the client closing its stream where that is the signal (2026-07-28 HTTP). */
  cancelled?: SessionMessage;
  /** `notifications/progress` for its token from the other party while it was the token's latest request. */
  readonly progress: SessionMessage[];
}

/** A request as findings name it: its method, the tool's name, its id. */
export function describeRequest(request: SessionRequest): string {
  const name = typeof request.params['name'] === 'string' ? ` ${request.params['name']}` : '';
  return `${request.method}${name} (id ${JSON.stringify(request.id)})`;
}

/** A notification of the session (a message with a method and no id). */
export interface SessionNotification {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: SessionMessage;
}

/** The session read as requests and notifications: what every judge works from. */
export interface SessionIndex {
  readonly transcript: SessionTranscript;
  readonly revision?: SpecVersion;
  /** Every request in the order sent (an id used twice is two requests). */
  readonly requests: readonly SessionRequest[];
  readonly notifications: readonly SessionNotification[];
  /** Responses that match no request of the other party still without one. */
  readonly strayResponses: readonly SessionMessage[];
  /** Cancellations, each with the request it names (undefined when it names none the sender sent). */
  readonly cancellations: readonly { readonly notification: SessionNotification; readonly request?: SessionRequest }[];
  /** Progress notifications, each with the request whose token it carries (undefined when no request of the other party has it). */
  readonly progress: readonly { readonly notification: SessionNotification; readonly request?: SessionRequest }[];
  /** Streamable HTTP: the server's messages by the id of the SSE event that carried them (the first, if an id came twice). */
  readonly serverEvents: ReadonlyMap<string, SessionMessage>;
}

function other(party: Party): Party {
  return party === 'client' ? 'server' : 'client';
}

/** Reads a transcript as requests, responses and notifications, each tied to the request it is about. */
export function indexSession(transcript: SessionTranscript): SessionIndex {
  const requests: SessionRequest[] = [];
  const notifications: SessionNotification[] = [];
  const strayResponses: SessionMessage[] = [];
  const cancellations: { notification: SessionNotification; request?: SessionRequest }[] = [];
  const progress: { notification: SessionNotification; request?: SessionRequest }[] = [];
  // The latest request each party sent with an id, and with a progress token.
  const byId: Record<Party, Map<IdKey, SessionRequest>> = { client: new Map(), server: new Map() };
  const byToken: Record<Party, Map<IdKey, SessionRequest>> = { client: new Map(), server: new Map() };
  const serverEvents = new Map<string, SessionMessage>();
  for (const entry of transcript.messages) {
    if (entry.from === 'server' && entry.eventId !== undefined && !serverEvents.has(entry.eventId)) serverEvents.set(entry.eventId, entry);
    const message = asRecord(entry.message);
    if (message === undefined) continue;
    const method = typeof message['method'] === 'string' ? message['method'] : undefined;
    const key = idKey(message['id']);
    const params = asRecord(message['params']) ?? {};
    if (method !== undefined && key !== undefined) {
      const token = asRecord(params['_meta'])?.['progressToken'];
      const request: SessionRequest = {
        id: message['id'] as string | number,
        key,
        from: entry.from,
        method,
        params,
        sent: entry,
        ...(typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {}),
        progress: [],
      };
      requests.push(request);
      byId[entry.from].set(key, request);
      const tokenKey = idKey(token);
      if (tokenKey !== undefined) byToken[entry.from].set(tokenKey, request);
    } else if (method !== undefined) {
      const notification = { method, params, message: entry };
      notifications.push(notification);
      if (method === METHODS.cancelled) {
        const named = byId[entry.from].get(idKey(params['requestId']) ?? '');
        cancellations.push({ notification, ...(named === undefined ? {} : { request: named }) });
        if (named !== undefined && named.cancelled === undefined) named.cancelled = entry;
      } else if (method === METHODS.progress) {
        const of = byToken[other(entry.from)].get(idKey(params['progressToken']) ?? '');
        progress.push({ notification, ...(of === undefined ? {} : { request: of }) });
        of?.progress.push(entry);
      }
    } else if ('result' in message || 'error' in message) {
      const answered = key === undefined ? undefined : byId[other(entry.from)].get(key);
      if (answered === undefined || answered.response !== undefined) strayResponses.push(entry);
      else answered.response = entry;
    }
  }
  const revision = transcript.revision ?? agreedRevision(requests) ?? headerRevision(transcript.streams);
  if (
    transcript.transport === TRACE_TRANSPORT['streamable-http'] &&
    revision !== undefined &&
    fact(revision, 'http-cancel-signal').value === 'close-stream'
  ) {
    // Over HTTP on this revision only closing the stream cancels: a POSTed notifications/cancelled is not the signal.
    for (const { notification, request } of cancellations)
      if (request !== undefined && request.cancelled === notification.message) delete request.cancelled;
    if (transcript.streams !== undefined) cancelByClosedStreams(requests, transcript.streams);
  }
  return {
    transcript,
    ...(revision === undefined ? {} : { revision }),
    requests,
    notifications,
    strayResponses,
    cancellations,
    progress,
    serverEvents,
  };
}

/** The revision the client's HTTP requests name in their MCP-Protocol-Version header, when they name one. */
function headerRevision(streams: readonly SessionStream[] | undefined): SpecVersion | undefined {
  const named = streams?.find((stream) => isSpecVersion(stream.protocolVersion))?.protocolVersion;
  return isSpecVersion(named) ? named : undefined;
}

/**
 * Where closing a request's response stream is the cancellation (2026-07-28 Streamable HTTP), a stream the client
 * closed before a request on it had its answer cancels that request, at the close's line and time.
 */
function cancelByClosedStreams(requests: readonly SessionRequest[], streams: readonly SessionStream[]): void {
  const byId = new Map(streams.map((stream) => [stream.id, stream]));
  for (const request of requests) {
    if (request.from !== 'client' || request.cancelled !== undefined || request.sent.stream === undefined) continue;
    if (LONG_LIVED_METHODS.has(request.method)) continue;
    const closed = byId.get(request.sent.stream)?.closed;
    if (closed === undefined || closed.by !== 'client') continue;
    if (request.response !== undefined && request.response.at <= closed.at) continue;
    request.cancelled = {
      line: closed.line,
      at: closed.at,
      from: 'client',
      stream: request.sent.stream,
      message: { closedStream: request.sent.stream },
    };
  }
}

/** The revision the session shows: the version `initialize` settled on, or the handshake that has no initialize. */
function agreedRevision(requests: readonly SessionRequest[]): SpecVersion | undefined {
  for (const request of requests) {
    if (request.method === METHODS.initialize) {
      const version = asRecord(asRecord(request.response?.message)?.['result'])?.['protocolVersion'];
      if (isSpecVersion(version)) return version;
    }
    // A handshake other than initialize names its revision by itself (server/discover).
    const [only, ...others] = revisionsWhere('handshake', (value) => value === request.method && value !== METHODS.initialize);
    if (only !== undefined && others.length === 0) return only;
  }
  return undefined;
}
