import { declareProbeCheck } from '../probe-check-declaration.js';

export const tools = declareProbeCheck({
  id: 'tools',
  title: 'the server lists its tools',
  description: 'tools/list is answered with the tools the server offers; the probe chooses from them what it may call.',
  basis: 'tools/list answers with the tools the server offers (what the probe may call is chosen from them)',
  fix: 'answer tools/list with a result whose tools array lists the tools',
  outcomes: ['pass', 'fail'],
  messages: {
    listed: '{{count|tool}} listed',
    unanswered: 'tools/list was not answered: {{why}}',
    refused: 'tools/list failed: {{error}}',
  },
  asserts: [],
  putsCallInFlight: false,
});
