import { revision } from '../../../src/probe/check-declarations/revision.js';
import { tools } from '../../../src/probe/check-declarations/tools.js';
import { wire } from '../../../src/probe/check-declarations/wire.js';
import { judgeRevision } from '../../../src/probe/checks/revision-judgement.js';
import { judgeToolsList, type ToolsListing } from '../../../src/probe/checks/tools-judgement.js';
import { judgeWireHygiene, type WireRecord } from '../../../src/probe/checks/wire-hygiene.js';
import type { Negotiation } from '../../../src/probe/session.js';
import { testJudgement } from './judgement-tester.js';

testJudgement(revision, judgeRevision, {
  pass: [
    {
      name: 'no revision asked for: the one negotiated',
      input: { negotiated: '2026-07-28', how: 'initialize' } satisfies Negotiation,
      messageId: 'speaks',
      data: { negotiated: '2026-07-28' },
    },
    {
      name: 'the revision asked for, negotiated',
      input: { requested: '2025-11-25', negotiated: '2025-11-25', how: 'initialize' } satisfies Negotiation,
      messageId: 'speaks',
    },
  ],
  fail: [
    {
      name: 'asked for one revision, another negotiated',
      input: {
        requested: '2026-07-28',
        negotiated: '2025-11-25',
        how: 'initialize',
        refused: 'the server answered protocolVersion 2025-11-25',
      } satisfies Negotiation,
      messageId: 'refused',
      data: { requested: '2026-07-28', refusal: 'the server answered protocolVersion 2025-11-25', negotiated: '2025-11-25' },
    },
  ],
});

testJudgement(tools, (listing: ToolsListing) => judgeToolsList(listing), {
  pass: [
    { name: 'two tools', input: { tools: [{ name: 'slow' }, { name: 'echo' }] }, messageId: 'listed', data: { count: 2 } },
    { name: 'no tools at all', input: { tools: [] }, messageId: 'listed', data: { count: 0 } },
  ],
  fail: [
    {
      name: 'tools/list unanswered',
      input: { unanswered: 'no response within 5000 ms' },
      messageId: 'unanswered',
      data: { why: 'no response within 5000 ms' },
    },
    {
      name: 'tools/list refused',
      input: { error: { code: -32601, message: 'Method not found' } },
      messageId: 'refused',
      data: { error: '{"code":-32601,"message":"Method not found"}' },
    },
  ],
});

const clean: WireRecord = { transport: 'stdio', garbage: { count: 0, samples: [] }, strays: [], straysDropped: 0, calls: [] };
const call = (more: Partial<WireRecord['calls'][number]>) => ({
  id: 3,
  owner: 'progress',
  repeated: 0,
  mistyped: [],
  failedOwner: false,
  ...more,
});

testJudgement(wire, judgeWireHygiene, {
  pass: [
    { name: 'nothing stray', input: clean, messageId: 'clean' },
    {
      name: 'a repeated response a failed check already reported',
      input: { ...clean, calls: [call({ repeated: 1, failedOwner: true })] },
      messageId: 'clean',
    },
  ],
  fail: [
    {
      name: 'the connection ended after the last check',
      input: { ...clean, endedAfterChecks: 'the server exited (code 1)' },
      messageId: 'endedAfterChecks',
      data: { why: 'the server exited (code 1)' },
    },
    {
      name: 'a log line on stdout',
      input: { ...clean, garbage: { count: 2, samples: ['starting…'] } },
      messageId: 'notJsonRpcOnStdout',
      data: { count: 2, sample: '"starting…"' },
    },
    {
      name: 'an SSE event that is not JSON-RPC',
      input: { ...clean, transport: 'streamable-http', garbage: { count: 1, samples: ['ping'] } },
      messageId: 'notJsonRpcOverHttp',
    },
    {
      name: 'a response to an id never sent',
      input: { ...clean, strays: [{ owner: 'tools', text: 'a response to id 99, which the probe never sent', count: 1 }] },
      messageId: 'stray',
      data: { owner: 'tools', text: 'a response to id 99, which the probe never sent' },
    },
    {
      name: 'progress for a token never given, three times',
      input: { ...clean, strays: [{ owner: 'progress', text: 'progress for token x', count: 3 }] },
      messageId: 'strayRepeated',
      data: { owner: 'progress', text: 'progress for token x', count: 3 },
    },
    {
      name: 'more strays than kept',
      input: { ...clean, straysDropped: 4 },
      messageId: 'straysDropped',
      data: { count: 4 },
    },
    {
      name: 'a second response',
      input: { ...clean, calls: [call({ repeated: 1 })] },
      messageId: 'repeatedResponses',
      data: { count: 1, request: 3, owner: 'progress' },
    },
    {
      name: 'an id matching only as a string',
      input: { ...clean, calls: [call({ mistyped: ['a response with id "3" for request 3'] })] },
      messageId: 'mistypedId',
      data: { text: 'a response with id "3" for request 3', owner: 'progress' },
    },
  ],
});
