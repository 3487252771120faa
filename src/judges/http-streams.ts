import type { SpecVersion } from '../spec/revisions.js';
import type { JudgeHead, Judgement } from './judgement.js';
import type { SessionIndex, SessionRequest } from './session-requests.js';
import type { SessionStream } from './session-transcript.js';

// What the HTTP judges read of a session's streams: whether the trace shows them, its revision, the requests lost
// with a broken stream, the resumptions and the calls sent again.

/** Stdio has no HTTP streams; an HTTP trace without stream records (an older recording) shows no headers or ends. */
export function streamsHidden(session: SessionIndex, head: JudgeHead): Judgement<never> | undefined {
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
export function httpRevision(session: SessionIndex, head: JudgeHead, unknown: string): SpecVersion | Judgement<never> {
  const hidden = streamsHidden(session, head);
  if (hidden !== undefined) return hidden;
  if (session.revision === undefined)
    return { ...head, status: 'inconclusive', summary: `the session does not show its revision, so ${unknown}`, cases: [] };
  return session.revision;
}

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
