import { reissueFinder, resumes } from './http-streams.js';
import type { SessionIndex, SessionRequest } from './session-requests.js';
import type { SessionStream } from './session-transcript.js';

/** What the aftermath reads of a session, made once however many failures ask (each part linear in the session). */
interface SessionLookups {
  /** The last time the client did anything but end the session: sent a message, or opened a stream other than a DELETE. */
  readonly lastClientActivity: number;
  readonly streams: ReadonlyMap<string, SessionStream>;
  /** The streams that resumed another (Last-Event-ID), in the order opened. */
  readonly resumptions: readonly SessionStream[];
  readonly reissueOf: ReturnType<typeof reissueFinder>;
}

const LOOKUPS = new WeakMap<SessionIndex, SessionLookups>();

function lookups(session: SessionIndex): SessionLookups {
  let found = LOOKUPS.get(session);
  if (found === undefined) {
    const streams = session.transcript.streams ?? [];
    let lastClientActivity = Number.NEGATIVE_INFINITY;
    for (const message of session.transcript.messages)
      if (message.from === 'client') lastClientActivity = Math.max(lastClientActivity, message.at);
    for (const stream of streams) if (stream.method !== 'DELETE') lastClientActivity = Math.max(lastClientActivity, stream.opened.at);
    found = {
      lastClientActivity,
      streams: new Map(streams.map((stream) => [stream.id, stream])),
      resumptions: streams.filter((stream) => stream.lastEventId !== undefined),
      reissueOf: reissueFinder(session),
    };
    LOOKUPS.set(session, found);
  }
  return found;
}

/**
 * Whether the client's closing of a stream at `at` was part of ending its session: after it the client sent no
 * message and opened no stream but a DELETE (a transport's `close()`, a process that exits). Such a close ends the
 * connection, not one request: it is no attempt to cancel, right or wrong.
 */
export function closedAtTeardown(session: SessionIndex, at: number): boolean {
  return lookups(session).lastClientActivity <= at;
}

/** The stream that carried a request, when the trace records streams. */
export function streamOf(session: SessionIndex, request: SessionRequest): SessionStream | undefined {
  const id = request.sent.stream;
  return id === undefined ? undefined : lookups(session).streams.get(id);
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
    const { resumptions, reissueOf } = lookups(session);
    const resumption = resumptions.find((one) => one.opened.at >= closed.at && resumes(session, one, stream, request));
    const again = reissueOf(request, closed.at);
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
