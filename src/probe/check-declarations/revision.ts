import { declareProbeCheck } from '../probe-check-declaration.js';

export const revision = declareProbeCheck({
  id: 'revision',
  title: 'the server speaks the revision probed',
  description:
    'The revision asked for (--spec-version or the manifest) is the one the handshake settles on; without one, the probe ' +
    'tries server/discover over Streamable HTTP and otherwise initializes with the most deployed revision.',
  basis: 'the revision asked for (--spec-version or the manifest) is the one the server negotiates',
  fix: "speak the revision asked for, or ask for the one the server speaks (the manifest's specVersion, or --spec-version of probe and drift)",
  outcomes: ['pass', 'fail'],
  messages: {
    refused: 'asked for {{requested}}, but {{refusal}}; probed {{negotiated}} instead',
    speaks: 'the server speaks {{negotiated}}',
  },
  asserts: [],
  putsCallInFlight: false,
});
