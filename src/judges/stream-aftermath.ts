import { reissueFinder, resumes } from './http-judges.js';
import type { SessionIndex, SessionRequest } from './session-requests.js';
import type { SessionStream } from './session-transcript.js';

/**
 * Whether the client's closing of a stream at `at` was part of ending its session: after it the client sent no
 * message and opened no stream but a DELETE (a transport's `close()`, a process that exits). Such a close ends the
 * connection, not one request: it is no attempt to cancel, right or wrong.
 */
export function closedAtTeardown(session: SessionIndex, at: number): boolean {
  const transcript = session.transcript;
  if (transcript.messages.some((message) => message.from === 'client' && message.at > at)) return false;
  return !(transcript.streams ?? []).some((stream) => stream.opened.at > at && stream.method !== 'DELETE');
}

/** Each session's finder of re-sent requests, built once however many failures ask (its index is linear in the session). */
const FINDERS = new WeakMap<SessionIndex, ReturnType<typeof reissueFinder>>();

function reissueOf(session: SessionIndex, lost: SessionRequest, brokeAt: number): SessionRequest | undefined {
  let find = FINDERS.get(session);
  if (find === undefined) {
    find = reissueFinder(session);
    FINDERS.set(session, find);
  }
  return find(lost, brokeAt);
}

/** The stream that carried a request, when the trace records streams. */
export function streamOf(session: SessionIndex, request: SessionRequest): SessionStream | undefined {
  const id = request.sent.stream;
  return id === undefined ? undefined : session.transcript.streams?.find((stream) => stream.id === id);
}

/**
 * What happened to a request's stream before the answer, in words for a failure that would otherwise say only what
 * did not happen: the server ended it (and what the client did after: resumed it, sent the call again, or nothing),
 * or the client closed it (as it ended the session, or while the session went on). Empty when the stream stayed
 * open, or the trace has none.
 */
export function streamAftermath(session: SessionIndex, request: SessionRequest): string {
  const stream = streamOf(session, request);
  const closed = stream?.closed;
  if (stream === undefined || closed === undefined) return '';
  if (request.response !== undefined && request.response.at <= closed.at) return '';
  const after = Math.round(closed.at - request.sent.at);
  if (closed.by === 'server') {
    const streams = session.transcript.streams ?? [];
    const resumption = streams.find((one) => one.opened.at >= closed.at && resumes(session, one, stream, request));
    const again = reissueOf(session, request, closed.at);
    const then =
      resumption !== undefined
        ? `the client resumed it (${resumption.id}) but sent no cancellation`
        : again !== undefined
          ? `the client sent the call again (id ${JSON.stringify(again.id)}) but never cancelled the first`
          : 'the client then sent nothing for it to the server: no resumption, no new request, no cancellation';
    return `; the server ended its stream ${after} ms after it was sent, without the answer, and ${then}`;
  }
  return closedAtTeardown(session, closed.at)
    ? `; the client closed its stream ${after} ms after it was sent, as it ended the session`
    : `; the client closed its stream ${after} ms after it was sent`;
}
