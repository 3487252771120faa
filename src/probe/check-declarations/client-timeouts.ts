import { declareProbeCheck } from '../probe-check-declaration.js';
import { ledBy } from './silence-messages.js';

export const clientTimeouts = declareProbeCheck({
  id: 'client-timeouts',
  title: 'idle and maximum timeouts enforced by the client, with the transport’s signal',
  description:
    'The probe as a client that keeps both clocks: progress resets the idle timeout, nothing extends the maximum. When one ' +
    "fires it cancels with the transport's signal and stops waiting; afterwards nothing may arrive. A run that ends before " +
    'either fires exercised nothing: inconclusive, never a pass.',
  basis:
    'implementations SHOULD set timeouts and on expiry cancel with the transport’s signal; ' +
    'progress MAY reset the clock but a maximum SHOULD always be enforced',
  fix: 'treat a cancellation that follows a client timeout as any other: stop the work and send nothing more for the request',
  outcomes: ['pass', 'fail', 'inconclusive', 'not-observable'],
  messages: {
    ...ledBy('the {{fired}} timeout fired {{firedAtMs}} ms after the request and the probe cancelled with {{signalWords}}; '),
    notPlayedAgain:
      'not exercised again: {{tool}} never answered within {{limitMs}} ms in {{check}}, so the {{fired}} timeout ({{timeoutMs}} ms) ' +
      'ends every call of it, and what follows the cancellation is the silence it keeps anyway',
  },
  asserts: ['server-silent-after-cancel', 'server-messages-on-own-stream'],
  putsCallInFlight: true,
});
