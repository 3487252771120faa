import { declareProbeCheck } from '../probe-check-declaration.js';

export const getNotAllowed = declareProbeCheck({
  id: 'get-405',
  title: 'GET on the endpoint is answered 405 where the revision takes POST only',
  description: 'Over Streamable HTTP, on a revision that takes POST only, sends a GET to the endpoint: it is answered 405.',
  basis: 'Streamable HTTP of the stateless revision: POST only; GET and DELETE answer 405',
  fix: 'answer GET on the endpoint with 405 Method Not Allowed',
  outcomes: ['pass', 'fail', 'not-observable'],
  messages: {
    stdio: 'stdio has no HTTP endpoint to send a GET to',
    eitherAllowed: 'on {{revision}} a GET may open a stream or answer 405: either is right, so no answer could show a defect',
    getFailed: '{{why}}',
    answered405: 'GET answered 405',
    otherStatus: 'GET answered {{status}}, not 405',
  },
  asserts: [],
  putsCallInFlight: false,
});
