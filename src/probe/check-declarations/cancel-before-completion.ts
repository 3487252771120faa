import { declareProbeCheck } from '../probe-check-declaration.js';
import { SILENCE_MESSAGES } from './silence-messages.js';

export const cancelBeforeCompletion = declareProbeCheck({
  id: 'cancel-before-completion',
  title: 'cancellation before completion: no response and no further message afterwards',
  description:
    "Cancels a long request mid-flight with the transport's signal; afterwards nothing more may come for it: on its own " +
    "stream, on another request's stream, or as an answer to the cancellation. An answer to the cancellation fails whenever " +
    'it arrives; only progress or a result within the in-flight allowance crossed the cancellation on the wire. Where ' +
    'closing the stream is the cancellation, whether the work stopped is not observable, unless the manifest names a ' +
    'status tool (probe.workStatus).',
  basis:
    'the receiver SHOULD stop and send no response (both revisions); where closing the HTTP stream is the cancellation, ' +
    'the server MUST NOT send further messages',
  fix: 'on cancellation, stop the work at its next checkpoint and send nothing more for the request: no progress, no result, no error',
  outcomes: ['pass', 'fail', 'inconclusive', 'not-observable'],
  messages: SILENCE_MESSAGES,
  asserts: ['server-silent-after-cancel', 'server-answers-only-requests', 'server-messages-on-own-stream'],
  putsCallInFlight: true,
});
