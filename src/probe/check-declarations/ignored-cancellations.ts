import { declareProbeCheck } from '../probe-check-declaration.js';

export const ignoredCancellations = declareProbeCheck({
  id: 'ignored-cancellations',
  title: 'late, unknown and malformed cancellations are ignored without a reply',
  description:
    'Sends a late, an unknown and two malformed cancellations: each is ignored (no reply of any kind) and the server still ' +
    'answers tools/list afterwards.',
  basis: 'a cancellation notification never gets a JSON-RPC response; invalid cancellations SHOULD be ignored (both revisions)',
  fix: 'drop a cancellation whose requestId is unknown, finished or malformed without a reply, and keep serving',
  outcomes: ['pass', 'fail'],
  messages: {
    listUnanswered: 'tools/list was not answered: {{why}}',
    answered: '{{cancellation}}: answered with {{answer}}',
    stray: 'the server sent {{stray}}',
    unhealthy: '{{why}}',
    ignored: 'all four were ignored and the server still answers',
  },
  asserts: ['server-answers-only-requests'],
  putsCallInFlight: false,
});
