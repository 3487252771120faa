import { defineJudge } from '../define-judge.js';
import { timeoutsOf } from '../judge-options.js';
import { idleDeadline, noTimeoutGiven, signalHidden, TIMEOUT_MESSAGES, timeoutCases, unexercised } from '../timeout-cases.js';

/**
 * A request unanswered when the client's idle timeout ran out (reset by progress, as the client may) is
 * cancelled with the transport's signal. Where the maximum ends first, the maximum's judge has it.
 */
export const clientCancelsOnIdleTimeout = defineJudge({
  id: 'client-cancels-on-idle-timeout',
  party: 'client',
  description: "A request unanswered at the client's idle timeout is cancelled with the transport's signal.",
  rests: { fact: 'cancel-on-timeout' },
  fix: "On timeout, send notifications/cancelled (stdio, and HTTP where the revision says so) or close the request's stream, then stop waiting.",
  messages: TIMEOUT_MESSAGES,
  observe(session, options, { head, judged }) {
    const unjudged = noTimeoutGiven(head, options, options.idleTimeoutMs, 'idle timeout', '--idle-timeout') ?? signalHidden(session, head);
    if (unjudged !== undefined) return unjudged;
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
      cases,
      unexercised('idle timeout', options, options.idleTimeoutMs),
      (count) => `${count} request(s) cancelled at their idle timeout`,
    );
  },
});
