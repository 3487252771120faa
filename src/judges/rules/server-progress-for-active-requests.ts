import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest } from '../session-requests.js';

const MESSAGES = {
  'unknown-token': 'progress with token {{token}}, which no request of the client carried',
  'after-response': 'progress for {{request}} {{afterMs}} ms after its final response',
  active: 'progress for {{request}} while it was active',
} as const;

/**
 * Progress references only the token of a request the client sent and still waits for: not a token the client
 * never sent (a server that invents its own), not one whose request has its response.
 */
export const serverProgressForActiveRequests = defineJudge({
  id: 'server-progress-for-active-requests',
  party: 'server',
  description: 'Progress names only the token of a request the client sent and still waits for.',
  rests: { fact: 'progress-stops' },
  fix: "Send progress only with the token from the request's _meta.progressToken, and only before its final response.",
  messages: MESSAGES,
  observe(session, _options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const { notification, request } of session.progress) {
      if (notification.message.from !== 'server') continue;
      const at = notification.message;
      if (request === undefined)
        cases.push({
          status: 'fail',
          messageId: 'unknown-token',
          // A missing token prints as undefined.
          data: { token: String(JSON.stringify(notification.params['progressToken'])) },
          lines: [at.line],
        });
      else if (request.response !== undefined && request.response.at < at.at)
        cases.push({
          status: 'fail',
          messageId: 'after-response',
          data: { request: describeRequest(request), afterMs: Math.round(at.at - request.response.at) },
          lines: [at.line, request.response.line],
        });
      else cases.push({ status: 'pass', messageId: 'active', data: { request: describeRequest(request) }, lines: [at.line] });
    }
    return judged(
      cases,
      'the server sent no progress',
      (count) => `all ${count} progress notification(s) named an active request of the client`,
    );
  },
});
