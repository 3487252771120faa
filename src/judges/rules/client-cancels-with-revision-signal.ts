import { fact } from '../../spec/revision-facts.js';
import { defineJudge, NEWEST_REVISION, type ObservedCase } from '../define-judge.js';
import { httpRevision, resumes } from '../http-streams.js';
import { type JudgeOptions, timeoutsOf } from '../judge-options.js';
import { cancelledByClosing, describeRequest, type SessionRequest } from '../session-requests.js';
import { closedAtTeardown } from '../stream-aftermath.js';
import { idleDeadline } from '../timeout-cases.js';

/** Whether `at` is when the request's own timeout ended (its idle timeout, reset by progress or not, or its maximum), within the tolerance. */
function atItsTimeout(request: SessionRequest, at: number, options: JudgeOptions): boolean {
  const { idleMs, maxMs } = timeoutsOf(options, request);
  const near = (from: number, to: number) => at >= from - options.toleranceMs && at <= to + options.toleranceMs;
  return (
    (idleMs !== undefined && near(request.sent.at + idleMs, idleDeadline(request, idleMs))) ||
    (maxMs !== undefined && near(request.sent.at + maxMs, request.sent.at + maxMs))
  );
}

const MESSAGES = {
  notified: 'cancelled {{request}} with notifications/cancelled',
  'closed-and-notified': 'cancelled {{request}} by closing its stream (and a notification {{revision}} does not need)',
  'notified-stream-open':
    'cancelled {{request}} with a POSTed notifications/cancelled, which {{revision}} neither requires nor expects, ' +
    'and left its stream open: the server never saw a cancellation',
  closed: 'cancelled {{request}} by closing its stream',
  'closed-not-notified':
    'closed the stream of {{request}} before its answer without notifications/cancelled: on {{revision}} a disconnect ' +
    'is not a cancellation, so the server goes on with the work',
} as const;

/**
 * Over Streamable HTTP the client cancels with its revision's signal: a POSTed `notifications/cancelled` where the
 * revision says so (2025-11-25, on which closing a stream is a disconnect, not a cancellation), closing the request's
 * stream where that is the signal (2026-07-28, on which a notification is "neither required nor expected": the
 * request runs on). Judged on each cancellation the client sent and each stream it closed before its answer — except a
 * close that only ends the session (nothing sent after it) away from the request's timeout: a teardown is not a
 * cancellation, and a request left without one is the timeout judges' to fail, once.
 */
export const clientCancelsWithRevisionSignal = defineJudge({
  id: 'client-cancels-with-revision-signal',
  party: 'client',
  description:
    "Over Streamable HTTP the client cancels with its revision's signal: a POSTed notifications/cancelled, or closing the request's stream.",
  rests: { fact: 'http-cancel-signal' },
  severity: 'error',
  cites: NEWEST_REVISION,
  fix:
    "Where closing the request's stream is the cancellation, abort the request's HTTP response; where the revision asks for " +
    'notifications/cancelled, POST it: closing a stream there is a disconnect, not a cancellation.',
  messages: MESSAGES,
  observe(session, options, { head, judged }) {
    if (session.transcript.transport === 'stdio')
      return {
        ...head,
        status: 'not-observable',
        summary: 'stdio has one cancellation signal, notifications/cancelled: there is no other to choose',
        cases: [],
      };
    const revision = httpRevision(session, head, 'its cancellation signal is unknown');
    if (typeof revision !== 'string') return revision;
    const closing = fact(revision, 'http-cancel-signal').value === 'close-stream';
    const streams = new Map((session.transcript.streams ?? []).map((stream) => [stream.id, stream]));
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const notified = new Set<unknown>();
    for (const { notification, request } of session.cancellations) {
      const at = notification.message;
      if (at.from !== 'client' || request === undefined) continue;
      notified.add(request);
      if (request.response !== undefined && request.response.at <= at.at) continue;
      if (!closing) {
        cases.push({ status: 'pass', messageId: 'notified', data: { request: describeRequest(request) }, lines: [at.line] });
        continue;
      }
      const closed = request.sent.stream === undefined ? undefined : streams.get(request.sent.stream)?.closed;
      // The server broke the stream first: the request was lost with it, and there was nothing left to cancel.
      if (closed !== undefined && closed.by === 'server' && closed.at <= at.at) continue;
      const closedToo = closed !== undefined && closed.by === 'client' && closed.at <= at.at + options.toleranceMs;
      cases.push(
        closedToo
          ? {
              status: 'pass',
              messageId: 'closed-and-notified',
              data: { request: describeRequest(request), revision },
              lines: [closed.line],
            }
          : {
              status: 'fail',
              messageId: 'notified-stream-open',
              data: { request: describeRequest(request), revision },
              lines: [at.line, request.sent.line],
            },
      );
    }
    for (const request of session.requests) {
      if (request.from !== 'client' || request.sent.stream === undefined || notified.has(request)) continue;
      const own = streams.get(request.sent.stream);
      const closed = own?.closed;
      if (own === undefined || closed === undefined || closed.by !== 'client' || request.response !== undefined) continue;
      // A disconnect the client resumed after (Last-Event-ID) was no attempt to cancel.
      if ([...streams.values()].some((one) => one.opened.at >= closed.at && resumes(session, one, own, request))) continue;
      if (closing) {
        if (request.cancelled !== undefined && cancelledByClosing(request.cancelled))
          cases.push({ status: 'pass', messageId: 'closed', data: { request: describeRequest(request) }, lines: [closed.line] });
      } else if (closedAtTeardown(session, closed.at) && !atItsTimeout(request, closed.at, options)) {
        // The client ended its session (a transport's close, a process that exits): no attempt to cancel this request.
      } else
        cases.push({
          status: 'fail',
          messageId: 'closed-not-notified',
          data: { request: describeRequest(request), revision },
          lines: [closed.line, request.sent.line],
        });
    }
    return judged(
      cases,
      'the client cancelled no request over HTTP',
      (count) => `each of ${count} cancellation(s) used the signal of ${revision}`,
    );
  },
});
