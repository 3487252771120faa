import { declareProbeCheck } from '../probe-check-declaration.js';

export const wire = declareProbeCheck({
  id: 'wire',
  title: 'every message is JSON-RPC and answers a request the probe sent, with its exact id',
  description:
    'Judged once everything has been seen: output that is not JSON-RPC, responses to ids the probe never sent, progress ' +
    'for tokens it never gave, repeated responses, and ids that match a request only in another JSON type.',
  basis:
    'JSON-RPC 2.0: a response carries the id of its request (same type and value); ' +
    'stdio: the server MUST NOT write anything to stdout that is not a valid MCP message',
  fix: 'answer each request once with its exact id, send progress only for tokens the client gave, and write logs to stderr, never stdout',
  outcomes: ['pass', 'fail'],
  messages: {
    clean: 'every message was JSON-RPC and answered a request the probe sent, with its id in type and value',
    endedAfterChecks: 'after the last check, {{why}}',
    notJsonRpcOnStdout:
      'the server wrote {{count}} message(s) that are not JSON-RPC on stdout (the stdio transport: the server MUST NOT write ' +
      'anything there that is not a valid MCP message), e.g. {{sample}}',
    notJsonRpcOverHttp: 'the server wrote {{count}} message(s) that are not JSON-RPC in response bodies or SSE events, e.g. {{sample}}',
    stray: 'during {{owner}}, the server sent {{text}}',
    strayRepeated: 'during {{owner}}, the server sent {{text}} ({{count}} times)',
    straysDropped: 'and {{count}} more such message(s)',
    repeatedResponses: '{{count}} more response(s) to request {{request}} ({{owner}}) after the first',
    mistypedId: 'the server sent {{text}} ({{owner}}): ids must match in type and value',
  },
  asserts: [],
  putsCallInFlight: false,
});
