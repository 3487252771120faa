import type { JudgeOptions } from './judge-options.js';
import { type Judge, type JudgedCase, judged } from './judgement.js';
import { cancelledByClosing, describeRequest, type SessionIndex } from './session-requests.js';
import { METHODS } from '../protocol/methods.js';

/** How long after a cancellation (beyond the grace) the answer to its fencing ping may come and still fence (ms). */
export const FENCE_MS = 1000;

/**
 * Over stdio, the fence of a cancellation: when the server answered a ping the client sent right after it. stdio
 * carries each direction in order, and a server answers a ping at once, so what it wrote before that answer may have
 * been written before it read the cancellation (a slow reader, a full pipe): it crossed the cancellation, as what is
 * in flight within the grace does. Bounded both ways, so that it never hides what a server sends late on purpose:
 * the ping must follow the cancellation within the grace (a keep-alive ping later fences nothing), and its answer
 * must come within the grace and FENCE_MS of the cancellation (else the session is judged by time alone). Only a
 * ping fences: another request may take its time to be answered.
 */
function pingFences(session: SessionIndex, options: JudgeOptions): (cancelledAt: number) => number | undefined {
  if (session.transcript.transport !== 'stdio') return () => undefined;
  const pings = session.requests.filter((request) => request.from === 'client' && request.method === METHODS.ping);
  return (cancelledAt) => {
    let low = 0;
    let high = pings.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((pings[middle]?.sent.at ?? 0) < cancelledAt) low = middle + 1;
      else high = middle;
    }
    const ping = pings[low];
    if (ping === undefined || ping.sent.at > cancelledAt + options.graceMs) return undefined;
    const answeredAt = ping.response?.at;
    return answeredAt !== undefined && answeredAt <= cancelledAt + options.graceMs + FENCE_MS ? answeredAt : undefined;
  };
}

/**
 * After the client cancelled a request, the server sends nothing more for it: no response, no progress. What was
 * in flight may still arrive within the grace period (both sides must handle the race), and over stdio what came
 * before the server answered the ping the client sent right after the cancellation (`pingFences`, bounded). Judged
 * on every request the client cancelled before its answer came, watched for at least the grace period after.
 */
export const serverSilentAfterCancel: Judge = (session, options) => {
  const cases: JudgedCase[] = [];
  const fenceAfter = pingFences(session, options);
  for (const request of session.requests) {
    const cancelled = request.cancelled;
    if (request.from !== 'client' || cancelled === undefined) continue;
    if (request.response !== undefined && request.response.at <= cancelled.at) continue;
    const after = Math.max(cancelled.at + options.graceMs, fenceAfter(cancelled.at) ?? Number.NEGATIVE_INFINITY);
    const late = [...(request.response === undefined ? [] : [request.response]), ...request.progress].filter(
      (message) => message.at > after,
    );
    late.sort((a, b) => a.at - b.at);
    const first = late[0];
    if (first !== undefined) {
      const what = first === request.response ? 'its response' : 'progress';
      cases.push({
        status: 'fail',
        message: `the server sent ${what} for ${describeRequest(request)} ${Math.round(first.at - cancelled.at)} ms after the client cancelled it`,
        lines: [first.line, cancelled.line],
      });
    } else if (session.transcript.endedAt >= after)
      cases.push({
        status: 'pass',
        // A closed stream can carry nothing more: what the server could still do wrong is write into another one.
        message: cancelledByClosing(cancelled)
          ? `nothing for ${describeRequest(request)} on any other stream after the client closed its own`
          : `nothing for ${describeRequest(request)} after its cancellation`,
        lines: [cancelled.line],
      });
  }
  return judged(
    { judge: 'server-silent-after-cancel', party: 'server', rests: { fact: 'receiver-stops' } },
    cases,
    'the client cancelled no request before its answer came (or the recording stopped within the grace period)',
    (count) => `the server sent nothing more for ${count} cancelled request(s)`,
  );
};

/** Each progress token's values strictly increase. Judged on every token with two or more notifications. */
export const serverProgressIncreases: Judge = (session) => {
  const cases: JudgedCase[] = [];
  for (const request of session.requests) {
    if (request.from !== 'client' || request.progress.length < 2) continue;
    let previous: number | undefined;
    let broke: JudgedCase | undefined;
    for (const message of request.progress) {
      const value = (message.message as { params?: { progress?: unknown } }).params?.progress;
      if (typeof value !== 'number') {
        broke = { status: 'fail', message: `progress for ${describeRequest(request)} has no numeric value`, lines: [message.line] };
        break;
      }
      if (previous !== undefined && value <= previous) {
        broke = {
          status: 'fail',
          message: `progress for ${describeRequest(request)} went from ${previous} to ${value}: it must increase`,
          lines: [message.line],
        };
        break;
      }
      previous = value;
    }
    cases.push(
      broke ?? {
        status: 'pass',
        message: `${request.progress.length} increasing values for ${describeRequest(request)}`,
        lines: [request.sent.line],
      },
    );
  }
  return judged(
    { judge: 'server-progress-increases', party: 'server', rests: { fact: 'progress-increases' } },
    cases,
    'no request got two progress notifications',
    (count) => `progress increased for each of ${count} request(s)`,
  );
};

/**
 * Progress references only the token of a request the client sent and still waits for: not a token the client
 * never sent (a server that invents its own), not one whose request has its response.
 */
export const serverProgressForActiveRequests: Judge = (session) => {
  const cases: JudgedCase[] = [];
  for (const { notification, request } of session.progress) {
    if (notification.message.from !== 'server') continue;
    const at = notification.message;
    if (request === undefined)
      cases.push({
        status: 'fail',
        message: `progress with token ${JSON.stringify(notification.params['progressToken'])}, which no request of the client carried`,
        lines: [at.line],
      });
    else if (request.response !== undefined && request.response.at < at.at)
      cases.push({
        status: 'fail',
        message: `progress for ${describeRequest(request)} ${Math.round(at.at - request.response.at)} ms after its final response`,
        lines: [at.line, request.response.line],
      });
    else cases.push({ status: 'pass', message: `progress for ${describeRequest(request)} while it was active`, lines: [at.line] });
  }
  return judged(
    { judge: 'server-progress-for-active-requests', party: 'server', rests: { fact: 'progress-stops' } },
    cases,
    'the server sent no progress',
    (count) => `all ${count} progress notification(s) named an active request of the client`,
  );
};

/**
 * Every response the server sends answers a request of the client that had none yet: a response to a
 * notification (a cancellation, say), to an id never sent or a second one to the same request breaks JSON-RPC.
 */
export const serverAnswersOnlyRequests: Judge = (session) => {
  const cases: JudgedCase[] = [];
  for (const stray of session.strayResponses) {
    if (stray.from !== 'server') continue;
    const id = (stray.message as { id?: unknown }).id;
    cases.push({
      status: 'fail',
      message: `a response with id ${JSON.stringify(id ?? null)}, which answers no pending request of the client`,
      lines: [stray.line],
    });
  }
  const answered = session.requests.filter((request) => request.from === 'client' && request.response !== undefined).length;
  if (cases.length === 0 && answered > 0) cases.push({ status: 'pass', message: `${answered} response(s), each to a request`, lines: [] });
  return judged(
    { judge: 'server-answers-only-requests', party: 'server', rests: { fact: 'notification-no-response' } },
    cases,
    'the server sent no response',
    () => `every response of the server answered one pending request`,
  );
};

export const SERVER_JUDGES: readonly Judge[] = [
  serverSilentAfterCancel,
  serverProgressIncreases,
  serverProgressForActiveRequests,
  serverAnswersOnlyRequests,
];
