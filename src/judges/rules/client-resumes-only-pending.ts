import { defineJudge, type ObservedCase } from '../define-judge.js';
import { streamsHidden } from '../http-streams.js';
import { describeRequest, type SessionRequest } from '../session-requests.js';
import type { SessionMessage } from '../session-transcript.js';

/** `nth` is empty for a request's first resumption, else " (resumption N)". */
const MESSAGES = {
  'after-cancel': '{{stream}} resumed the stream of {{request}} {{afterMs}} ms after the client cancelled it{{nth}}',
  'after-answer': '{{stream}} resumed the stream of {{request}} {{afterMs}} ms after its answer arrived{{nth}}',
  pending: '{{stream}} resumed the stream of {{request}} while it was pending',
} as const;

/**
 * The client resumes (GET with `Last-Event-ID`) only the stream of a request still pending: once it cancelled the
 * request, or has its answer, there is nothing left to resume, and a client that resumes anyway keeps a stream open
 * for nothing — often again and again. Judged on each resumption whose event id names a message the trace shows
 * (the id of the SSE event that carried it): the request that message was about is the one resumed.
 */
export const clientResumesOnlyPending = defineJudge({
  id: 'client-resumes-only-pending',
  party: 'client',
  description: 'The client resumes (Last-Event-ID) only the stream of a request it has not cancelled and has no answer for.',
  rests: { fact: 'cancel-in-flight-only' },
  fix: 'Stop resuming a stream once its request is cancelled or answered (drop its resumption token with the request).',
  messages: MESSAGES,
  observe(session, _options, { head, judged }) {
    const hidden = streamsHidden(session, head);
    if (hidden !== undefined) return hidden;
    // Each server message the requests own (a response or progress), and the requests sent on each stream.
    const owner = new Map<SessionMessage, SessionRequest>();
    const sentOn = new Map<string, SessionRequest>();
    for (const request of session.requests) {
      if (request.from !== 'client') continue;
      if (request.response !== undefined) owner.set(request.response, request);
      for (const one of request.progress) owner.set(one, request);
      if (request.sent.stream !== undefined && !sentOn.has(request.sent.stream)) sentOn.set(request.sent.stream, request);
    }
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const times = new Map<SessionRequest, number>();
    for (const stream of session.transcript.streams ?? []) {
      if (stream.lastEventId === undefined) continue;
      const carried = session.serverEvents.get(stream.lastEventId);
      if (carried === undefined || carried.at > stream.opened.at) continue;
      const request = owner.get(carried) ?? (carried.stream === undefined ? undefined : sentOn.get(carried.stream));
      if (request === undefined) continue;
      const count = (times.get(request) ?? 0) + 1;
      times.set(request, count);
      const nth = count === 1 ? '' : ` (resumption ${count})`;
      const after = (at: number) => Math.round(stream.opened.at - at);
      const { cancelled, response } = request;
      const about = { stream: stream.id, request: describeRequest(request) };
      if (cancelled !== undefined && cancelled.at < stream.opened.at && (response === undefined || cancelled.at < response.at))
        cases.push({
          status: 'fail',
          messageId: 'after-cancel',
          data: { ...about, afterMs: after(cancelled.at), nth },
          lines: [stream.opened.line, cancelled.line],
        });
      else if (response !== undefined && response.at < stream.opened.at)
        cases.push({
          status: 'fail',
          messageId: 'after-answer',
          data: { ...about, afterMs: after(response.at), nth },
          lines: [stream.opened.line, response.line],
        });
      else cases.push({ status: 'pass', messageId: 'pending', data: about, lines: [stream.opened.line] });
    }
    return judged(
      cases,
      'the client resumed no stream whose event id the trace shows',
      (count) => `each of ${count} resumption(s) was of a pending request's stream`,
    );
  },
});
