import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest } from '../session-requests.js';

const MESSAGES = {
  'no-numeric-value': 'progress for {{request}} has no numeric value',
  'not-increasing': 'progress for {{request}} went from {{previous}} to {{value}}: it must increase',
  increasing: '{{count}} increasing values for {{request}}',
} as const;

/** Each progress token's values strictly increase. Judged on every token with two or more notifications. */
export const serverProgressIncreases = defineJudge({
  id: 'server-progress-increases',
  party: 'server',
  description: "Each request's progress values strictly increase.",
  rests: { fact: 'progress-increases' },
  fix: 'Send a progress value greater than the last one each time, even when the total is unknown.',
  messages: MESSAGES,
  observe(session, _options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const request of session.requests) {
      if (request.from !== 'client' || request.progress.length < 2) continue;
      let previous: number | undefined;
      let broke: ObservedCase<typeof MESSAGES> | undefined;
      for (const message of request.progress) {
        const value = (message.message as { params?: { progress?: unknown } }).params?.progress;
        if (typeof value !== 'number') {
          broke = { status: 'fail', messageId: 'no-numeric-value', data: { request: describeRequest(request) }, lines: [message.line] };
          break;
        }
        if (previous !== undefined && value <= previous) {
          broke = {
            status: 'fail',
            messageId: 'not-increasing',
            data: { request: describeRequest(request), previous, value },
            lines: [message.line],
          };
          break;
        }
        previous = value;
      }
      cases.push(
        broke ?? {
          status: 'pass',
          messageId: 'increasing',
          data: { count: request.progress.length, request: describeRequest(request) },
          lines: [request.sent.line],
        },
      );
    }
    return judged(cases, 'no request got two progress notifications', (count) => `progress increased for each of ${count} request(s)`);
  },
});
