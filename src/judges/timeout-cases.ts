import { fact } from '../spec/revision-facts.js';
import type { JudgeOptions } from './judge-options.js';
import type { ObservedCase } from './define-judge.js';
import type { JudgeHead, Judgement } from './judgement.js';
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
export function signalHidden(session: SessionIndex, head: JudgeHead): Judgement<never> | undefined {
  if (session.transcript.transport === 'stdio') return undefined;
  const base = { ...head, cases: [] };
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
 * What the timeout judges (the idle timeout's, the maximum's) say of a case: `timeout` names the timeout and its
 * length, `aftermath` what happened to the request's stream (empty when nothing did).
 */
export const TIMEOUT_MESSAGES = {
  'cancelled-at-timeout': '{{request}} cancelled {{sinceSentMs}} ms after it was sent, at its {{timeout}}',
  'cancelled-late': '{{request}} was cancelled {{lateMs}} ms after its {{timeout}} (tolerance {{toleranceMs}} ms)',
  'not-cancelled': '{{request}} passed its {{timeout}} without a cancellation{{aftermath}}',
  'answered-after-timeout':
    '{{request}} passed its {{timeout}} without a cancellation (its answer came {{answerLateMs}} ms later){{aftermath}}',
} as const;

type TimeoutCase = ObservedCase<typeof TIMEOUT_MESSAGES>;

/**
 * When a request's timeout may end: from `earliest` (a timer that nothing resets) to `latest` (the timer reset by
 * each progress notification, as the client may choose).
 */
export interface TimeoutWindow {
  readonly earliest: number;
  readonly latest: number;
}

/**
 * Judges each request still unanswered when its timeout could have ended: the client must cancel by the end of
 * the window plus the tolerance. A cancellation before the window (the user's, say) shows nothing of the timeout.
 */
export function timeoutCases(
  session: SessionIndex,
  toleranceMs: number,
  windowOf: (request: SessionRequest) => TimeoutWindow | undefined,
  what: (request: SessionRequest) => string,
): TimeoutCase[] {
  const cases: TimeoutCase[] = [];
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
          messageId: 'cancelled-at-timeout',
          data: { request: describeRequest(request), sinceSentMs: sinceSent(cancelled.at), timeout: what(request) },
          lines: [cancelled.line],
        });
      else
        cases.push({
          status: 'fail',
          messageId: 'cancelled-late',
          data: {
            request: describeRequest(request),
            lateMs: Math.round(cancelled.at - window.latest),
            timeout: what(request),
            toleranceMs,
          },
          lines: [cancelled.line, request.sent.line],
        });
      continue;
    }
    if (response !== undefined && response.at <= due) continue;
    if (session.transcript.endedAt < due) continue;
    const passed = { request: describeRequest(request), timeout: what(request), aftermath: streamAftermath(session, request) };
    cases.push(
      response === undefined
        ? { status: 'fail', messageId: 'not-cancelled', data: passed, lines: [request.sent.line] }
        : {
            status: 'fail',
            messageId: 'answered-after-timeout',
            data: { ...passed, answerLateMs: Math.round(response.at - window.latest) },
            lines: [request.sent.line],
          },
    );
  }
  return cases;
}

/** What a timeout judge says when no request outlived its timeout: the one given, or each operation's own. */
export function unexercised(what: string, options: JudgeOptions, given: number | undefined): string {
  return options.claimsFor === undefined && given !== undefined
    ? `no request outlived the ${what} of ${given} ms`
    : `no request outlived its ${what} (its operation's in the manifest${given === undefined ? '' : `, else ${given} ms`})`;
}

/**
 * What a timeout judge says when it has no timeout to judge against (none given, no manifest): inconclusive, naming
 * the option that would give one; undefined when it has one.
 */
export function noTimeoutGiven(
  head: JudgeHead,
  options: JudgeOptions,
  given: number | undefined,
  what: string,
  flag: string,
): Judgement<never> | undefined {
  if (given !== undefined || options.claimsFor !== undefined) return undefined;
  return { ...head, status: 'inconclusive', summary: `no ${what} to judge against: give ${flag} or a manifest`, cases: [] };
}
