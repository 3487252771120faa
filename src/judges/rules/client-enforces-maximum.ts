import { defineJudge } from '../define-judge.js';
import { timeoutsOf } from '../judge-options.js';
import { noTimeoutGiven, signalHidden, TIMEOUT_MESSAGES, timeoutCases, unexercised } from '../timeout-cases.js';

/** A request unanswered at the client's maximum timeout is cancelled then, whatever progress came: progress never extends the maximum. */
export const clientEnforcesMaximum = defineJudge({
  id: 'client-enforces-maximum',
  party: 'client',
  description: "A request unanswered at the client's maximum timeout is cancelled then, whatever progress came.",
  rests: { fact: 'maximum-timeout' },
  fix: 'Keep a maximum that progress never resets (the TypeScript SDK: maxTotalTimeout), and cancel when it passes.',
  messages: TIMEOUT_MESSAGES,
  observe(session, options, { head, judged }) {
    const unjudged = noTimeoutGiven(head, options, options.maxTimeoutMs, 'maximum timeout', '--max-timeout') ?? signalHidden(session, head);
    if (unjudged !== undefined) return unjudged;
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
      cases,
      unexercised('maximum timeout', options, options.maxTimeoutMs),
      (count) => `${count} request(s) cancelled at their maximum`,
    );
  },
});
