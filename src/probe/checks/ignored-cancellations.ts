import type { PostOutcome } from '../connection.js';
import { outcome, type ProbeCheck, type ProbeContext } from '../probe-types.js';
import { describeMessage, healthy, isResponse } from './observe.js';

/** A late, an unknown and a malformed cancellation: each ignored — no reply of any kind — and the server stays healthy. */
export const ignoredCancellations: ProbeCheck = {
  id: 'ignored-cancellations',
  title: 'late, unknown and malformed cancellations are ignored without a reply',
  basis: 'a cancellation notification never gets a JSON-RPC response; invalid cancellations SHOULD be ignored (both revisions)',
  async run(context) {
    const problems: string[] = [];
    const details: string[] = [];
    const done = await context.session.request('tools/list', {}, context.plan.requestTimeoutMs);
    if (done === undefined) return outcome('fail', `tools/list was not answered within ${context.plan.requestTimeoutMs} ms`);
    const cases: [string, Record<string, unknown>][] = [
      [
        'a cancellation of a request that already completed',
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: done.message['id'], reason: 'mcprely probe: late' } },
      ],
      [
        'a cancellation of an unknown request',
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'mcprely-no-such-request', reason: 'mcprely probe: unknown' },
        },
      ],
      [
        'a cancellation whose requestId is not a string or integer',
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: true } },
      ],
      ['a cancellation without params', { jsonrpc: '2.0', method: 'notifications/cancelled' }],
    ];
    for (const [label, message] of cases) {
      const posted = await context.session.connection.notify(message);
      const reply = await replyTo(context, posted);
      if (reply === undefined) details.push(`${label}: ignored`);
      else problems.push(`${label}: ${reply}`);
    }
    const sick = await healthy(context);
    if (sick !== undefined) problems.push(sick);
    return problems.length === 0
      ? outcome('pass', 'all four were ignored and the server still answers', details)
      : outcome('fail', problems[0]!, [...problems.slice(1), ...details]);
  },
};

/** What came back to a notification: an HTTP error or body, or (stdio) any response within the grace period. */
async function replyTo(context: ProbeContext, posted: PostOutcome): Promise<string | undefined> {
  if (posted.status !== undefined) {
    if (posted.status >= 400) return `answered with HTTP ${posted.status}${posted.body ? ` ${posted.body}` : ''}`;
    if (posted.body !== undefined && posted.body !== '') return `answered with a body: ${posted.body}`;
    return undefined;
  }
  const reply = await context.session.connection.other.next(isResponse, context.plan.graceMs);
  return reply === undefined ? undefined : `answered with ${describeMessage(reply)}: ${JSON.stringify(reply.message)}`;
}
