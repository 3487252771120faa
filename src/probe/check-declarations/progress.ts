import { declareProbeCheck } from '../probe-check-declaration.js';

export const progress = declareProbeCheck({
  id: 'progress',
  title: 'progress strictly increases, carries its own token, stops at completion',
  description:
    'Runs the long tool to completion with a progress token of its own: every progress value is greater than the last, ' +
    'none comes after the response, and the request is answered once.',
  basis:
    'progress "MUST increase with each notification"; notifications MUST reference only active requests and "MUST stop after completion"',
  fix: 'send each progress value greater than the last, with the token of the request it reports on, and none after its response',
  outcomes: ['pass', 'fail', 'inconclusive'],
  messages: {},
  asserts: ['server-progress-increases', 'server-progress-for-active-requests', 'server-streams-progress'],
  putsCallInFlight: true,
});
