import { missingSseHeaders } from '../reference/recovery.js';
import { fact } from '../spec/revision-facts.js';
import type { SpecVersion } from '../spec/revisions.js';
import { type Judge, type JudgedCase, type Judgement, judged } from './judgement.js';
import { describeRequest, type SessionIndex, type SessionRequest } from './session-requests.js';
import type { SessionMessage, SessionStream } from './session-transcript.js';
import { SSE_CONTENT_TYPE } from '../protocol/http-headers.js';

export type JudgeHead = Pick<Judgement, 'judge' | 'party' | 'rests'>;

/** Stdio has no HTTP streams; an HTTP trace without stream records (an older recording) shows no headers or ends. */
export function streamsHidden(session: SessionIndex, head: JudgeHead): Judgement | undefined {
  const base = { ...head, status: 'not-observable' as const, cases: [] };
  if (session.transcript.transport === 'stdio') return { ...base, summary: 'stdio has no HTTP streams or headers' };
  if (session.transcript.streams === undefined)
    return { ...base, summary: 'the trace does not record its HTTP streams (record it again with mcprely proxy --url)' };
  return undefined;
}

/**
 * The revision of an HTTP session whose streams the trace records, for a judge that needs both; else its judgement:
 * not observable (stdio, no stream records) or inconclusive (the session does not show its revision: `unknown` says
 * what that leaves open).
 */
export function httpRevision(session: SessionIndex, head: JudgeHead, unknown: string): SpecVersion | Judgement {
  const hidden = streamsHidden(session, head);
  if (hidden !== undefined) return hidden;
  if (session.revision === undefined)
    return { ...head, status: 'inconclusive', summary: `the session does not show its revision, so ${unknown}`, cases: [] };
  return session.revision;
}

function isSse(stream: SessionStream): boolean {
  return (stream.response?.headers['content-type'] ?? '').toLowerCase().startsWith(SSE_CONTENT_TYPE);
}

/**
 * Every SSE response carries `Content-Type: text/event-stream`, `Cache-Control: no-cache` and `X-Accel-Buffering: no`:
 * without them a proxy or a CDN on the way may hold the events back, and progress reaches the client only with the
 * answer. Judged on each SSE response the session saw.
 */
export const serverSseHeaders: Judge = (session) => {
  const head: JudgeHead = {
    judge: 'server-sse-headers',
    party: 'server',
    rests: {
      lesson: 'Streamable HTTP',
      says: 'SSE responses carry Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no',
    },
  };
  const hidden = streamsHidden(session, head);
  if (hidden !== undefined) return hidden;
  const streams = session.transcript.streams ?? [];
  const cases: JudgedCase[] = [];
  for (const stream of streams) {
    const response = stream.response;
    if (response === undefined || !isSse(stream)) continue;
    const missing = missingSseHeaders(response.headers);
    cases.push(
      missing.length > 0
        ? { status: 'fail', message: `the SSE response of ${stream.id} lacks ${missing.join(', ')}`, lines: [response.line] }
        : { status: 'pass', message: `the SSE response of ${stream.id} has all three headers`, lines: [response.line] },
    );
  }
  return judged(head, cases, 'the server sent no SSE response', (count) => `each of ${count} SSE response(s) had the three headers`);
};

/** Why a server message about `request` may come on `carrier`, a stream other than the request's own: or undefined. */
function allowedElsewhere(session: SessionIndex, isResponse: boolean, carrier: SessionStream | undefined): string | undefined {
  if (session.revision === undefined || carrier === undefined) return undefined;
  if (carrier.lastEventId !== undefined && fact(session.revision, 'last-event-id-resumption').value === true)
    return `on ${carrier.id}, which resumed a stream (Last-Event-ID ${carrier.lastEventId})`;
  if (!isResponse && carrier.method === 'GET' && fact(session.revision, 'request-scoped-notifications').value === 'any-stream')
    return `on the GET stream ${carrier.id}, as ${session.revision} allows`;
  return undefined;
}

/**
 * The server answers a request, and sends its progress, on the stream of the POST that carried it: a client reads a
 * request's messages there (on 2026-07-28 only there), and a message written into another request's stream is lost
 * to it or taken for that request's. A response on the GET stream is allowed only on a resumed stream; progress on
 * it only where the revision lets request-scoped notifications travel on any stream (2025-11-25).
 */
export const serverMessagesOnOwnStream: Judge = (session) => {
  const head: JudgeHead = { judge: 'server-messages-on-own-stream', party: 'server', rests: { fact: 'request-scoped-notifications' } };
  const hidden = streamsHidden(session, head);
  if (hidden !== undefined) return hidden;
  const streams = session.transcript.streams ?? [];
  const byId = new Map(streams.map((stream) => [stream.id, stream]));
  const cases: JudgedCase[] = [];
  const judgeOne = (request: SessionRequest, message: SessionMessage, isResponse: boolean) => {
    const own = request.sent.stream;
    if (message.stream === undefined || own === undefined) return;
    const what = isResponse ? 'the response' : 'progress';
    if (message.stream === own) {
      cases.push({ status: 'pass', message: `${what} for ${describeRequest(request)} on its own stream ${own}`, lines: [message.line] });
      return;
    }
    const elsewhere = allowedElsewhere(session, isResponse, byId.get(message.stream));
    if (elsewhere !== undefined)
      cases.push({ status: 'pass', message: `${what} for ${describeRequest(request)} ${elsewhere}`, lines: [message.line] });
    // Another request's POST stream is wrong on every revision; the GET stream depends on it, unknown here.
    else if (session.revision !== undefined || byId.get(message.stream)?.method === 'POST')
      cases.push({
        status: 'fail',
        message: `${what} for ${describeRequest(request)} came on ${message.stream}, not on ${own}, the stream of the request`,
        lines: [message.line, request.sent.line],
      });
  };
  for (const request of session.requests) {
    if (request.from !== 'client') continue;
    if (request.response !== undefined) judgeOne(request, request.response, true);
    for (const progress of request.progress) judgeOne(request, progress, false);
  }
  return judged(
    head,
    cases,
    'the server sent no response or progress on a stream the trace records',
    (count) => `each of ${count} response(s) and progress notification(s) came on its request's stream`,
  );
};

/**
 * The requests of the client lost with a stream the server ended before their answer: where a client might resume.
 * Linear in the session: a hostile client may send 10⁵ requests on one stream (a batch) that the server then breaks.
 */
export function lostRequests(
  session: SessionIndex,
  streams: readonly SessionStream[],
): { stream: SessionStream; request: SessionRequest }[] {
  const onStream = new Map<string, SessionRequest[]>();
  for (const request of session.requests) {
    const stream = request.sent.stream;
    if (request.from !== 'client' || stream === undefined) continue;
    const requests = onStream.get(stream);
    if (requests === undefined) onStream.set(stream, [request]);
    else requests.push(request);
  }
  const lost: { stream: SessionStream; request: SessionRequest }[] = [];
  for (const stream of streams) {
    const closed = stream.closed;
    if (closed === undefined || closed.by !== 'server') continue;
    for (const request of onStream.get(stream.id) ?? [])
      if (request.response === undefined || request.response.at > closed.at) lost.push({ stream, request });
  }
  return lost;
}

/**
 * Whether `resumption` (a request with Last-Event-ID) resumes `broken`, the stream of `request`: the event it names
 * was on that stream or about that request — or the trace does not show the event (no ids recorded), so it may be.
 */
export function resumes(session: SessionIndex, resumption: SessionStream, broken: SessionStream, request: SessionRequest): boolean {
  if (resumption.lastEventId === undefined) return false;
  const event = session.serverEvents.get(resumption.lastEventId);
  return event === undefined || event.stream === broken.id || event === request.response || request.progress.includes(event);
}

/** What makes two requests the same call: the method, the tool and the arguments. */
function callSignature(request: SessionRequest): string {
  const name = request.params['name'];
  return `${request.method}\u0000${typeof name}:${JSON.stringify(name ?? null)}\u0000${JSON.stringify(request.params['arguments'] ?? null)}`;
}

/**
 * Finds the client's later request that sends `lost` again: the same method, tool and arguments, after the break,
 * under another id. The client's requests are indexed once by call (each list in the order sent), so that finding
 * one is a binary search, not a scan of the session per lost request.
 */
export function reissueFinder(session: SessionIndex): (lost: SessionRequest, brokeAt: number) => SessionRequest | undefined {
  const calls = new Map<string, SessionRequest[]>();
  for (const request of session.requests) {
    if (request.from !== 'client') continue;
    const signature = callSignature(request);
    const same = calls.get(signature);
    if (same === undefined) calls.set(signature, [request]);
    else same.push(request);
  }
  return (lost, brokeAt) => {
    const same = calls.get(callSignature(lost)) ?? [];
    let low = 0;
    let high = same.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((same[middle] as SessionRequest).sent.at < brokeAt) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < same.length; index++) {
      const later = same[index] as SessionRequest;
      if (later !== lost && later.key !== lost.key) return later;
    }
    return undefined;
  };
}

/**
 * The client resumes a stream with `Last-Event-ID` only where the revision supports it: 2026-07-28 has no
 * resumption, and a broken stream's request must be sent again under a new id. Judged on each request that
 * carried the header, and — on a revision without resumption — on each stream that broke before its answer and was
 * sent again under a new id, without the header (what the client does instead, `lost-request-judge.ts` judges).
 */
export const clientResumesOnlyWhereSupported: Judge = (session) => {
  const head: JudgeHead = { judge: 'client-resumes-only-where-supported', party: 'client', rests: { fact: 'last-event-id-resumption' } };
  const revision = httpRevision(session, head, 'whether it allows resumption is unknown');
  if (typeof revision !== 'string') return revision;
  const streams = session.transcript.streams ?? [];
  const supported = fact(revision, 'last-event-id-resumption').value === true;
  const cases: JudgedCase[] = [];
  for (const stream of streams) {
    if (stream.lastEventId === undefined) continue;
    cases.push(
      supported
        ? {
            status: 'pass',
            message: `${stream.id} resumed after event ${stream.lastEventId}, as ${revision} allows`,
            lines: [stream.opened.line],
          }
        : {
            status: 'fail',
            message: `${stream.id} sent Last-Event-ID ${stream.lastEventId}, but ${revision} has no resumption: send the request again under a new id`,
            lines: [stream.opened.line],
          },
    );
  }
  if (!supported) {
    const reissueOf = reissueFinder(session);
    const byId = new Map(streams.map((one) => [one.id, one]));
    for (const { stream, request } of lostRequests(session, streams)) {
      // Passed only where the client did what the revision asks instead: the same call again under a new id.
      const again = reissueOf(request, stream.closed?.at ?? 0);
      if (again !== undefined && again.sent.stream !== undefined && byId.get(again.sent.stream)?.lastEventId === undefined)
        cases.push({
          status: 'pass',
          message:
            `${stream.id} broke before the answer to ${describeRequest(request)}; ` +
            `the client sent it again as id ${JSON.stringify(again.id)}, without Last-Event-ID`,
          lines: [again.sent.line, stream.closed?.line ?? 1],
        });
    }
  }
  return judged(
    head,
    cases,
    supported
      ? 'the client resumed no stream'
      : 'no stream broke before its answer and was followed by the call sent again, so nothing showed what the client does',
    (count) =>
      supported
        ? `${count} resumption(s), which ${revision} allows`
        : `the client sent each of ${count} lost call(s) again under a new id, never resuming`,
  );
};

export const HTTP_SERVER_JUDGES: readonly Judge[] = [serverSseHeaders, serverMessagesOnOwnStream];
