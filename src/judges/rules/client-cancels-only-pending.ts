import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest } from '../session-requests.js';

const MESSAGES = {
  'never-sent': 'a cancellation of id {{requestId}}, which the client never sent',
  'after-answer': 'a cancellation of {{request}} {{afterMs}} ms after its answer arrived',
  pending: 'cancelled {{request}} while it was pending',
} as const;

/** The client cancels only requests it sent and has no answer for (an answer that crossed the cancellation in flight is the race, allowed). */
export const clientCancelsOnlyPending = defineJudge({
  id: 'client-cancels-only-pending',
  party: 'client',
  description: 'The client cancels only requests it sent and has no answer for.',
  rests: { fact: 'cancel-in-flight-only' },
  fix: 'Do not cancel once the response has arrived (clear the abort signal or the timer when it does).',
  messages: MESSAGES,
  observe(session, options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const { notification, request } of session.cancellations) {
      const at = notification.message;
      if (at.from !== 'client') continue;
      if (request === undefined)
        cases.push({
          status: 'fail',
          messageId: 'never-sent',
          data: { requestId: JSON.stringify(notification.params['requestId'] ?? null) },
          lines: [at.line],
        });
      else if (request.response !== undefined && request.response.at + options.graceMs < at.at)
        cases.push({
          status: 'fail',
          messageId: 'after-answer',
          data: { request: describeRequest(request), afterMs: Math.round(at.at - request.response.at) },
          lines: [at.line, request.response.line],
        });
      else cases.push({ status: 'pass', messageId: 'pending', data: { request: describeRequest(request) }, lines: [at.line] });
    }
    return judged(cases, 'the client sent no cancellation', (count) => `all ${count} cancellation(s) named a pending request`);
  },
});
