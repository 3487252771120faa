import { declareProbeCheck } from '../probe-check-declaration.js';

export const sseHeaders = declareProbeCheck({
  id: 'sse-headers',
  title: 'SSE responses carry text/event-stream, no-cache and X-Accel-Buffering: no',
  description:
    'Over Streamable HTTP, reads the headers of a streamed response (of the long tool, else of tools/list) and stops there: ' +
    'an SSE response carries the headers that keep proxies from buffering it.',
  basis:
    'the current Streamable HTTP transport: the server SHOULD send X-Accel-Buffering: no; the lesson: Content-Type text/event-stream, Cache-Control no-cache',
  fix: 'send Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no on every SSE response',
  outcomes: ['pass', 'fail', 'inconclusive', 'not-observable'],
  messages: {
    stdio: 'stdio has no HTTP headers to see',
    noResponse: 'the request got no response: {{why}}',
    listNotStreamed:
      'the server answered tools/list with {{contentType}}, not an SSE stream: no SSE headers to judge; ' +
      'name a long-running tool with --operation so the server streams',
    toolNotStreamed:
      'the server answered {{tool}} with {{contentType}}, not an SSE stream: no SSE headers to judge; the server chose a JSON response',
    missing: 'the SSE response lacks {{missing}}',
    present: 'all three headers present',
  },
  asserts: ['server-sse-headers'],
  putsCallInFlight: false,
});
