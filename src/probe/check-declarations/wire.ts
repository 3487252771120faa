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
  messages: {},
  asserts: [],
  putsCallInFlight: false,
});
