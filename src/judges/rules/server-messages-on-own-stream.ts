import { fact } from '../../spec/revision-facts.js';
import { defineJudge, NEWEST_REVISION, type ObservedCase } from '../define-judge.js';
import { streamsHidden } from '../http-streams.js';
import { describeRequest, type SessionIndex, type SessionRequest } from '../session-requests.js';
import type { SessionMessage, SessionStream } from '../session-transcript.js';

/** Why a server message about `request` may come on `carrier`, a stream other than the request's own: or undefined. */
function allowedElsewhere(session: SessionIndex, isResponse: boolean, carrier: SessionStream | undefined): string | undefined {
  if (session.revision === undefined || carrier === undefined) return undefined;
  if (carrier.lastEventId !== undefined && fact(session.revision, 'last-event-id-resumption').value === true)
    return `on ${carrier.id}, which resumed a stream (Last-Event-ID ${carrier.lastEventId})`;
  if (!isResponse && carrier.method === 'GET' && fact(session.revision, 'request-scoped-notifications').value === 'any-stream')
    return `on the GET stream ${carrier.id}, as ${session.revision} allows`;
  return undefined;
}

/** `what` is "the response" or "progress"; `where` says on which other stream, and why it may. */
const MESSAGES = {
  'on-own-stream': '{{what}} for {{request}} on its own stream {{stream}}',
  'allowed-elsewhere': '{{what}} for {{request}} {{where}}',
  'on-other-stream': '{{what}} for {{request}} came on {{stream}}, not on {{own}}, the stream of the request',
} as const;

/**
 * The server answers a request, and sends its progress, on the stream of the POST that carried it: a client reads a
 * request's messages there (on 2026-07-28 only there), and a message written into another request's stream is lost
 * to it or taken for that request's. A response on the GET stream is allowed only on a resumed stream; progress on
 * it only where the revision lets request-scoped notifications travel on any stream (2025-11-25).
 */
export const serverMessagesOnOwnStream = defineJudge({
  id: 'server-messages-on-own-stream',
  party: 'server',
  description:
    "A request's response and progress travel on the stream of the POST that carried it (the GET stream only where the revision allows).",
  rests: { fact: 'request-scoped-notifications' },
  severity: 'error',
  cites: NEWEST_REVISION,
  fix:
    "Write a request's progress and result to its own response stream; when that stream is gone, drop them " +
    '(where closing is the cancellation, the request is over).',
  messages: MESSAGES,
  observe(session, _options, { head, judged }) {
    const hidden = streamsHidden(session, head);
    if (hidden !== undefined) return hidden;
    const streams = session.transcript.streams ?? [];
    const byId = new Map(streams.map((stream) => [stream.id, stream]));
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const judgeOne = (request: SessionRequest, message: SessionMessage, isResponse: boolean) => {
      const own = request.sent.stream;
      if (message.stream === undefined || own === undefined) return;
      const about = { what: isResponse ? 'the response' : 'progress', request: describeRequest(request) };
      if (message.stream === own) {
        cases.push({ status: 'pass', messageId: 'on-own-stream', data: { ...about, stream: own }, lines: [message.line] });
        return;
      }
      const elsewhere = allowedElsewhere(session, isResponse, byId.get(message.stream));
      if (elsewhere !== undefined)
        cases.push({ status: 'pass', messageId: 'allowed-elsewhere', data: { ...about, where: elsewhere }, lines: [message.line] });
      // Another request's POST stream is wrong on every revision; the GET stream depends on it, unknown here.
      else if (session.revision !== undefined || byId.get(message.stream)?.method === 'POST')
        cases.push({
          status: 'fail',
          messageId: 'on-other-stream',
          data: { ...about, stream: message.stream, own },
          lines: [message.line, request.sent.line],
        });
    };
    for (const request of session.requests) {
      if (request.from !== 'client') continue;
      if (request.response !== undefined) judgeOne(request, request.response, true);
      for (const progress of request.progress) judgeOne(request, progress, false);
    }
    return judged(
      cases,
      'the server sent no response or progress on a stream the trace records',
      (count) => `each of ${count} response(s) and progress notification(s) came on its request's stream`,
    );
  },
});
