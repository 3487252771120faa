import { fact } from '../spec/revision-facts.js';
import { type JudgeOptions, timeoutsOf } from './judge-options.js';
import { type Judge, type JudgedCase, type Judgement, judged } from './judgement.js';
import { describeRequest, LONG_LIVED_METHODS, lostWithItsStreamAt, type SessionIndex, type SessionRequest } from './session-requests.js';
import { streamAftermath } from './stream-aftermath.js';
import { METHODS } from '../protocol/methods.js';

/** When the idle timeout ends for a request: its sending, or the last progress that came before the timer ran out. */
export function idleDeadline(request: SessionRequest, idleMs: number): number {
  let last = request.sent.at;
  for (const progress of request.progress) {
    if (progress.at > last + idleMs) break;
    last = Math.max(last, progress.at);
  }
  return last + idleMs;
}

/**
 * The session's cancellation signal is one the trace shows: `notifications/cancelled` (stdio, and HTTP where the
 * revision says so), or closing the request's stream — seen only where the trace records its streams' ends.
 */
function signalHidden(session: SessionIndex, judge: string, rests: Judgement['rests']): Judgement | undefined {
  if (session.transcript.transport === 'stdio') return undefined;
  const base = { judge, party: 'client' as const, rests, cases: [] };
  if (session.revision === undefined)
    return {
      ...base,
      status: 'inconclusive',
      summary: 'the session does not show its revision, so the cancellation signal over HTTP is unknown',
    };
  if (fact(session.revision, 'http-cancel-signal').value === 'notification' || session.transcript.streams !== undefined) return undefined;
  return {
    ...base,
    status: 'not-observable',
    summary: `on ${session.revision} over HTTP the client cancels by closing the request's stream, which this trace does not record`,
  };
}

/**
 * When a request's timeout may end: from `earliest` (a timer that nothing resets) to `latest` (the timer reset by
 * each progress notification, as the client may choose).
 */
interface TimeoutWindow {
  readonly earliest: number;
  readonly latest: number;
}

/**
 * Judges each request still unanswered when its timeout could have ended: the client must cancel by the end of
 * the window plus the tolerance. A cancellation before the window (the user's, say) shows nothing of the timeout.
 */
function timeoutCases(
  session: SessionIndex,
  toleranceMs: number,
  windowOf: (request: SessionRequest) => TimeoutWindow | undefined,
  what: (request: SessionRequest) => string,
): JudgedCase[] {
  const cases: JudgedCase[] = [];
  for (const request of session.requests) {
    if (request.from !== 'client' || request.method === METHODS.initialize || LONG_LIVED_METHODS.has(request.method)) continue;
    const window = windowOf(request);
    if (window === undefined) continue;
    const due = window.latest + toleranceMs;
    const { response, cancelled } = request;
    if (response !== undefined && response.at <= window.earliest) continue;
    // The server broke the request's stream before the timeout was due: on 2026-07-28 the request is lost with it.
    const lostAt = cancelled === undefined ? lostWithItsStreamAt(session, request) : undefined;
    if (lostAt !== undefined && lostAt <= due) continue;
    const sinceSent = (at: number) => Math.round(at - request.sent.at);
    if (cancelled !== undefined && (response === undefined || cancelled.at < response.at)) {
      if (cancelled.at < window.earliest - toleranceMs) continue;
      if (cancelled.at <= due)
        cases.push({
          status: 'pass',
          message: `${describeRequest(request)} cancelled ${sinceSent(cancelled.at)} ms after it was sent, at its ${what(request)}`,
          lines: [cancelled.line],
        });
      else
        cases.push({
          status: 'fail',
          message:
            `${describeRequest(request)} was cancelled ${Math.round(cancelled.at - window.latest)} ms after its ${what(request)} ` +
            `(tolerance ${toleranceMs} ms)`,
          lines: [cancelled.line, request.sent.line],
        });
      continue;
    }
    if (response !== undefined && response.at <= due) continue;
    if (session.transcript.endedAt < due) continue;
    cases.push({
      status: 'fail',
      message:
        `${describeRequest(request)} passed its ${what(request)} without a cancellation` +
        (response === undefined ? '' : ` (its answer came ${Math.round(response.at - window.latest)} ms later)`) +
        streamAftermath(session, request),
      lines: [request.sent.line],
    });
  }
  return cases;
}

/**
 * A request unanswered when the client's idle timeout ran out (reset by progress, as the client may) is
 * cancelled with the transport's signal. Where the maximum ends first, the maximum's judge has it.
 */
export const clientCancelsOnIdleTimeout: Judge = (session, options) => {
  const base = { judge: 'client-cancels-on-idle-timeout', party: 'client' as const, rests: { fact: 'cancel-on-timeout' } as const };
  if (options.idleTimeoutMs === undefined && options.claimsFor === undefined)
    return { ...base, status: 'inconclusive', summary: 'no idle timeout to judge against: give --idle-timeout or a manifest', cases: [] };
  const hidden = signalHidden(session, base.judge, base.rests);
  if (hidden !== undefined) return hidden;
  const cases = timeoutCases(
    session,
    options.toleranceMs,
    (request) => {
      const { idleMs, maxMs } = timeoutsOf(options, request);
      if (idleMs === undefined) return undefined;
      const earliest = request.sent.at + idleMs;
      const latest = idleDeadline(request, idleMs);
      // Where the maximum ends first, the maximum's judge has the request.
      return maxMs !== undefined && request.sent.at + maxMs < earliest ? undefined : { earliest, latest };
    },
    (request) => `idle timeout (${timeoutsOf(options, request).idleMs} ms)`,
  );
  return judged(
    base,
    cases,
    unexercised('idle timeout', options, options.idleTimeoutMs),
    (count) => `${count} request(s) cancelled at their idle timeout`,
  );
};

/** What a timeout judge says when no request outlived its timeout: the one given, or each operation's own. */
function unexercised(what: string, options: JudgeOptions, given: number | undefined): string {
  return options.claimsFor === undefined && given !== undefined
    ? `no request outlived the ${what} of ${given} ms`
    : `no request outlived its ${what} (its operation's in the manifest${given === undefined ? '' : `, else ${given} ms`})`;
}

/** A request unanswered at the client's maximum timeout is cancelled then, whatever progress came: progress never extends the maximum. */
export const clientEnforcesMaximum: Judge = (session, options) => {
  const base = { judge: 'client-enforces-maximum', party: 'client' as const, rests: { fact: 'maximum-timeout' } as const };
  if (options.maxTimeoutMs === undefined && options.claimsFor === undefined)
    return { ...base, status: 'inconclusive', summary: 'no maximum timeout to judge against: give --max-timeout or a manifest', cases: [] };
  const hidden = signalHidden(session, base.judge, base.rests);
  if (hidden !== undefined) return hidden;
  const cases = timeoutCases(
    session,
    options.toleranceMs,
    (request) => {
      const { maxMs } = timeoutsOf(options, request);
      return maxMs === undefined ? undefined : { earliest: request.sent.at + maxMs, latest: request.sent.at + maxMs };
    },
    (request) => {
      const maxMs = timeoutsOf(options, request).maxMs ?? 0;
      return `maximum (${maxMs} ms${request.progress.some((one) => one.at < request.sent.at + maxMs) ? ', extended by progress' : ''})`;
    },
  );
  return judged(
    base,
    cases,
    unexercised('maximum timeout', options, options.maxTimeoutMs),
    (count) => `${count} request(s) cancelled at their maximum`,
  );
};

/** No request id of the client is used twice in the session. */
export const clientRequestIdsUnique: Judge = (session) => {
  const cases: JudgedCase[] = [];
  const seen = new Map<string, SessionRequest>();
  let count = 0;
  for (const request of session.requests) {
    if (request.from !== 'client') continue;
    count++;
    const earlier = seen.get(request.key);
    if (earlier !== undefined)
      cases.push({
        status: 'fail',
        message: `${describeRequest(request)} reuses the id of ${earlier.method} sent ${Math.round(request.sent.at - earlier.sent.at)} ms earlier`,
        lines: [request.sent.line, earlier.sent.line],
      });
    else seen.set(request.key, request);
  }
  if (cases.length === 0 && count >= 2) cases.push({ status: 'pass', message: `${count} requests, each with its own id`, lines: [] });
  return judged(
    { judge: 'client-request-ids-unique', party: 'client', rests: { fact: 'request-id-unique' } },
    cases,
    'the client sent fewer than two requests',
    () => `every one of the client's ${count} requests had its own id`,
  );
};

/** The client cancels only requests it sent and has no answer for (an answer that crossed the cancellation in flight is the race, allowed). */
export const clientCancelsOnlyPending: Judge = (session, options) => {
  const cases: JudgedCase[] = [];
  for (const { notification, request } of session.cancellations) {
    const at = notification.message;
    if (at.from !== 'client') continue;
    if (request === undefined)
      cases.push({
        status: 'fail',
        message: `a cancellation of id ${JSON.stringify(notification.params['requestId'] ?? null)}, which the client never sent`,
        lines: [at.line],
      });
    else if (request.response !== undefined && request.response.at + options.graceMs < at.at)
      cases.push({
        status: 'fail',
        message: `a cancellation of ${describeRequest(request)} ${Math.round(at.at - request.response.at)} ms after its answer arrived`,
        lines: [at.line, request.response.line],
      });
    else cases.push({ status: 'pass', message: `cancelled ${describeRequest(request)} while it was pending`, lines: [at.line] });
  }
  return judged(
    { judge: 'client-cancels-only-pending', party: 'client', rests: { fact: 'cancel-in-flight-only' } },
    cases,
    'the client sent no cancellation',
    (count) => `all ${count} cancellation(s) named a pending request`,
  );
};
