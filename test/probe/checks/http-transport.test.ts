import { getNotAllowed } from '../../../src/probe/check-declarations/get-405.js';
import { sseHeaders } from '../../../src/probe/check-declarations/sse-headers.js';
import { type GetAnswer, judgeGet, judgeSseHeaders, type SseHeadersRun } from '../../../src/probe/checks/http-transport-judgement.js';
import { testJudgement } from './judgement-tester.js';

const streamed = (headers: Record<string, string>): SseHeadersRun => ({ tool: 'slow', headers });

testJudgement(
  sseHeaders,
  judgeSseHeaders,
  {
    pass: [
      {
        name: 'all three, with a charset and a list of cache directives',
        input: streamed({
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
        }),
        messageId: 'present',
      },
    ],
    fail: [
      {
        name: 'no X-Accel-Buffering',
        input: streamed({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }),
        messageId: 'missing',
        data: { missing: 'X-Accel-Buffering: no' },
      },
      {
        name: 'caching allowed and no X-Accel-Buffering',
        input: streamed({ 'content-type': 'text/event-stream', 'cache-control': 'max-age=60' }),
        messageId: 'missing',
        data: { missing: 'Cache-Control: no-cache, X-Accel-Buffering: no' },
      },
      {
        name: 'no response at all',
        input: { tool: 'slow', why: 'HTTP 500' },
        messageId: 'noResponse',
        data: { why: 'HTTP 500' },
      },
    ],
    inconclusive: [
      {
        name: 'the tool was answered with JSON',
        input: streamed({ 'content-type': 'application/json' }),
        messageId: 'toolNotStreamed',
        data: { tool: 'slow', contentType: 'application/json' },
      },
      {
        name: 'tools/list was answered without a content type',
        input: { headers: {} },
        messageId: 'listNotStreamed',
        data: { contentType: 'no content type' },
      },
    ],
  },
  { unexercised: ['stdio'] },
);

testJudgement(
  getNotAllowed,
  (answer: GetAnswer) => judgeGet(answer),
  {
    pass: [{ name: 'GET answered 405', input: { status: 405, headers: {} }, messageId: 'answered405' }],
    fail: [
      {
        name: 'GET opened a stream',
        input: { status: 200, headers: { 'content-type': 'text/event-stream' } },
        messageId: 'otherStatus',
        data: { status: 200 },
      },
      {
        name: 'GET failed',
        input: { failed: 'the GET failed: ECONNRESET' },
        messageId: 'getFailed',
        data: { why: 'the GET failed: ECONNRESET' },
      },
    ],
  },
  { unexercised: ['stdio', 'eitherAllowed'] },
);
