import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest, type SessionRequest } from '../session-requests.js';

const MESSAGES = {
  'id-reused': '{{request}} reuses the id of {{earlierMethod}} sent {{earlierMs}} ms earlier',
  'ids-unique': '{{count}} requests, each with its own id',
} as const;

/** No request id of the client is used twice in the session. */
export const clientRequestIdsUnique = defineJudge({
  id: 'client-request-ids-unique',
  party: 'client',
  description: 'The client never uses a request id twice in a session.',
  rests: { fact: 'request-id-unique' },
  fix: 'Give every request, a re-sent one too, an id the session has not used.',
  messages: MESSAGES,
  observe(session, _options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const seen = new Map<string, SessionRequest>();
    let count = 0;
    for (const request of session.requests) {
      if (request.from !== 'client') continue;
      count++;
      const earlier = seen.get(request.key);
      if (earlier !== undefined)
        cases.push({
          status: 'fail',
          messageId: 'id-reused',
          data: {
            request: describeRequest(request),
            earlierMethod: earlier.method,
            earlierMs: Math.round(request.sent.at - earlier.sent.at),
          },
          lines: [request.sent.line, earlier.sent.line],
        });
      else seen.set(request.key, request);
    }
    if (cases.length === 0 && count >= 2) cases.push({ status: 'pass', messageId: 'ids-unique', data: { count }, lines: [] });
    return judged(cases, 'the client sent fewer than two requests', () => `every one of the client's ${count} requests had its own id`);
  },
});
