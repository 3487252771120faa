import { defineJudge, type ObservedCase } from '../define-judge.js';

const MESSAGES = {
  'stray-response': 'a response with id {{id}}, which answers no pending request of the client',
  'answers-requests': '{{count}} response(s), each to a request',
} as const;

/**
 * Every response the server sends answers a request of the client that had none yet: a response to a
 * notification (a cancellation, say), to an id never sent or a second one to the same request breaks JSON-RPC.
 */
export const serverAnswersOnlyRequests = defineJudge({
  id: 'server-answers-only-requests',
  party: 'server',
  description: 'Every response answers one pending request; a notification (a cancellation) is never answered.',
  rests: { fact: 'notification-no-response' },
  fix: 'Answer requests only, once each; treat a message without an id as a notification.',
  messages: MESSAGES,
  observe(session, _options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const stray of session.strayResponses) {
      if (stray.from !== 'server') continue;
      const id = (stray.message as { id?: unknown }).id;
      cases.push({ status: 'fail', messageId: 'stray-response', data: { id: JSON.stringify(id ?? null) }, lines: [stray.line] });
    }
    const answered = session.requests.filter((request) => request.from === 'client' && request.response !== undefined).length;
    if (cases.length === 0 && answered > 0)
      cases.push({ status: 'pass', messageId: 'answers-requests', data: { count: answered }, lines: [] });
    return judged(cases, 'the server sent no response', () => `every response of the server answered one pending request`);
  },
});
