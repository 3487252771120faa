import { fact } from '../spec/revision-facts.js';
import { type JudgedCase, type Judge, judged } from './judgement.js';
import { httpRevision, type JudgeHead, resumes } from './http-judges.js';
import { idleDeadline } from './client-judges.js';
import { type JudgeOptions, timeoutsOf } from './judge-options.js';
import { cancelledByClosing, describeRequest, type SessionRequest } from './session-requests.js';
import { closedAtTeardown } from './stream-aftermath.js';

/** Whether `at` is when the request's own timeout ended (its idle timeout, reset by progress or not, or its maximum), within the tolerance. */
function atItsTimeout(request: SessionRequest, at: number, options: JudgeOptions): boolean {
  const { idleMs, maxMs } = timeoutsOf(options, request);
  const near = (from: number, to: number) => at >= from - options.toleranceMs && at <= to + options.toleranceMs;
  return (
    (idleMs !== undefined && near(request.sent.at + idleMs, idleDeadline(request, idleMs))) ||
    (maxMs !== undefined && near(request.sent.at + maxMs, request.sent.at + maxMs))
  );
}

/**
 * Over Streamable HTTP the client cancels with its revision's signal: a POSTed `notifications/cancelled` where the
 * revision says so (2025-11-25, on which closing a stream is a disconnect, not a cancellation), closing the request's
 * stream where that is the signal (2026-07-28, on which a notification is "neither required nor expected": the
 * request runs on). Judged on each cancellation the client sent and each stream it closed before its answer — except a
 * close that only ends the session (nothing sent after it) away from the request's timeout: a teardown is not a
 * cancellation, and a request left without one is the timeout judges' to fail, once.
 */
export const clientCancelsWithRevisionSignal: Judge = (session, options) => {
  const head: JudgeHead = { judge: 'client-cancels-with-revision-signal', party: 'client', rests: { fact: 'http-cancel-signal' } };
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
  const cases: JudgedCase[] = [];
  const notified = new Set<unknown>();
  for (const { notification, request } of session.cancellations) {
    const at = notification.message;
    if (at.from !== 'client' || request === undefined) continue;
    notified.add(request);
    if (request.response !== undefined && request.response.at <= at.at) continue;
    if (!closing) {
      cases.push({ status: 'pass', message: `cancelled ${describeRequest(request)} with notifications/cancelled`, lines: [at.line] });
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
            message: `cancelled ${describeRequest(request)} by closing its stream (and a notification ${revision} does not need)`,
            lines: [closed.line],
          }
        : {
            status: 'fail',
            message:
              `cancelled ${describeRequest(request)} with a POSTed notifications/cancelled, which ${revision} neither requires nor expects, ` +
              'and left its stream open: the server never saw a cancellation',
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
        cases.push({ status: 'pass', message: `cancelled ${describeRequest(request)} by closing its stream`, lines: [closed.line] });
    } else if (closedAtTeardown(session, closed.at) && !atItsTimeout(request, closed.at, options)) {
      // The client ended its session (a transport's close, a process that exits): no attempt to cancel this request.
    } else
      cases.push({
        status: 'fail',
        message:
          `closed the stream of ${describeRequest(request)} before its answer without notifications/cancelled: on ${revision} a disconnect ` +
          'is not a cancellation, so the server goes on with the work',
        lines: [closed.line, request.sent.line],
      });
  }
  return judged(
    head,
    cases,
    'the client cancelled no request over HTTP',
    (count) => `each of ${count} cancellation(s) used the signal of ${revision}`,
  );
};
