import { ignoredCancellations as declared } from '../check-declarations/ignored-cancellations.js';
import type { SentNotification } from '../connection.js';
import { messagesOf } from '../check-message.js';
import { judged, type ProbeCheck } from '../probe-types.js';
import { judgeIgnoredCancellations } from './ignored-cancellations-judgement.js';
import { healthy, pause, unanswered } from './observe.js';
import { METHODS } from '../../protocol/methods.js';

const message = messagesOf(declared);

/** A late, an unknown and two malformed cancellations: each ignored — no reply of any kind — and the server stays healthy. */
export const ignoredCancellations: ProbeCheck<'ignored-cancellations'> = {
  ...declared,
  async run(context) {
    const connection = context.session.connection;
    const done = await context.session.request(METHODS.toolsList, {}, context.plan.requestTimeoutMs, context.owner);
    if (done.inbox.response === undefined)
      return judged('fail', message('listUnanswered', { why: unanswered(done, context.plan.requestTimeoutMs) }));
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
    // What came by the end of the grace period is judged here; a later answer fails the check after the fact (its watch).
    const cancellations = sent.map(([cancellation, notification]) => ({
      cancellation,
      ...(notification.answer === undefined ? {} : { answer: notification.answer.text }),
    }));
    const strayTexts = connection.strays
      .filter((stray) => stray.owner === context.owner && stray.count > (strays.get(stray) ?? 0))
      .map((stray) => stray.text);
    const sick = await healthy(context);
    const watch = { calls: [], notifications: sent.map(([, notification]) => notification) };
    const judgedRun = judgeIgnoredCancellations({
      cancellations,
      strays: strayTexts,
      ...(sick === undefined ? {} : { unhealthy: sick }),
    });
    return { ...judgedRun, watch };
  },
};
