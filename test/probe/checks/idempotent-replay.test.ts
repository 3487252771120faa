import { idempotentReplay } from '../../../src/probe/check-declarations/idempotent-replay.js';
import { judgeReplay, type ReplayAnswer, type ReplayRun } from '../../../src/probe/checks/idempotent-replay-judgement.js';
import { testJudgement } from './judgement-tester.js';

// The answers as recorded: tools/call responses (by id), or why none came.
const result = (id: number, text: string, meta?: Record<string, unknown>): ReplayAnswer => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }], ...(meta === undefined ? {} : { _meta: meta }) },
});
const toolError = (id: number, text: string): ReplayAnswer => ({
  jsonrpc: '2.0',
  id,
  result: { isError: true, content: [{ type: 'text', text }] },
});
const rpcError = (id: number, code: number, message: string): ReplayAnswer => ({ jsonrpc: '2.0', id, error: { code, message } });

const run = (first: ReplayAnswer, second: ReplayAnswer, third?: ReplayAnswer): ReplayRun => ({
  tool: 'create_order',
  key: 'mcprely-probe-1-2',
  changed: { amount: 11 },
  first,
  second,
  ...(third === undefined ? {} : { third }),
});

testJudgement(
  idempotentReplay,
  judgeReplay,
  {
    pass: [
      {
        name: 'the replay repeats the stored result and the changed arguments get a tool error',
        input: run(result(1, 'order 7'), result(2, 'order 7'), toolError(3, 'key reused with other arguments')),
        messageId: 'replayed',
        data: {},
      },
      {
        name: 'a replay whose _meta differs is still the same result; the changed arguments get a JSON-RPC error',
        input: run(result(1, 'order 7', { at: 1 }), result(2, 'order 7', { at: 2 }), rpcError(3, -32602, 'key reused')),
        messageId: 'replayed',
      },
    ],
    fail: [
      {
        name: 'the second call was not answered',
        input: run(result(1, 'order 7'), { failed: 'no answer within 10000 ms' }),
        messageId: 'unanswered',
        data: { tool: 'create_order', why: 'no answer within 10000 ms' },
      },
      {
        name: 'the first call failed',
        input: run(toolError(1, 'out of stock'), result(2, 'order 7')),
        messageId: 'firstFailed',
        data: { failure: 'a tool error: [{"type":"text","text":"out of stock"}]' },
      },
      {
        name: 'the replay ran the work again (a new result)',
        input: run(result(1, 'order 7'), result(2, 'order 8'), toolError(3, 'refused')),
        messageId: 'differentResults',
        data: { first: '{"content":[{"text":"order 7","type":"text"}]}', second: '{"content":[{"text":"order 8","type":"text"}]}' },
      },
      {
        name: 'the same key with changed arguments was accepted',
        input: run(result(1, 'order 7'), result(2, 'order 7'), result(3, 'order 9')),
        messageId: 'changedAccepted',
        data: { arguments: '{"amount":11}', answer: '{"content":[{"text":"order 9","type":"text"}]}' },
      },
      {
        name: 'the call with changed arguments was not answered: not a refusal',
        input: run(result(1, 'order 7'), result(2, 'order 7'), { failed: 'the process exited' }),
        messageId: 'changedAccepted',
        data: { arguments: '{"amount":11}', answer: 'the process exited' },
      },
    ],
  },
  { unexercised: ['notRun'] },
);
