import { ignoredCancellations as declared } from '../check-declarations/ignored-cancellations.js';
import type { SentNotification } from '../connection.js';
import { outcome, type ProbeCheck } from '../probe-types.js';
import { healthy, pause, unanswered } from './observe.js';
import { METHODS } from '../../protocol/methods.js';

/** A late, an unknown and two malformed cancellations: each ignored — no reply of any kind — and the server stays healthy. */
export const ignoredCancellations: ProbeCheck<'ignored-cancellations'> = {
  ...declared,
  async run(context) {
    const connection = context.session.connection;
    const done = await context.session.request(METHODS.toolsList, {}, context.plan.requestTimeoutMs, context.owner);
    if (done.inbox.response === undefined)
      return outcome('fail', `tools/list was not answered: ${unanswered(done, context.plan.requestTimeoutMs)}`);
    const cases: [string, Record<string, unknown>][] = [
      ['a cancellation of a request that already completed', { requestId: done.id, reason: 'mcprely probe: late' }],
      ['a cancellation of an unknown request', { requestId: 'mcprely-no-such-request', reason: 'mcprely probe: unknown' }],
      ['a cancellation whose requestId is not a string or integer', { requestId: true }],
    ];
    const strays = new Map(connection.strays.map((stray) => [stray, stray.count]));
    const sent: [string, SentNotification][] = [];
    for (const [label, params] of cases)
      sent.push([label, await connection.notify({ jsonrpc: '2.0', method: METHODS.cancelled, params }, context.owner)]);
    sent.push(['a cancellation without params', await connection.notify({ jsonrpc: '2.0', method: METHODS.cancelled }, context.owner)]);
    await pause(context, context.plan.graceMs);
    const problems: string[] = [];
    const details: string[] = [];
    for (const [label, notification] of sent) {
      if (notification.answer === undefined) details.push(`${label}: ignored`);
      else problems.push(`${label}: answered with ${notification.answer.text}`);
    }
    for (const stray of connection.strays)
      if (stray.owner === context.owner && stray.count > (strays.get(stray) ?? 0)) problems.push(`the server sent ${stray.text}`);
    const sick = await healthy(context);
    if (sick !== undefined) problems.push(sick);
    const watch = { calls: [], notifications: sent.map(([, notification]) => notification) };
    return problems.length === 0
      ? outcome('pass', 'all four were ignored and the server still answers', details, watch)
      : outcome('fail', problems[0]!, [...problems.slice(1), ...details], watch);
  },
};
