import { outcome, type ProbeCheck, since, watchAfterCancel } from '../probe-types.js';
import { isProgress, isResponse } from '../received.js';
import { pause } from './observe.js';
import { violations } from './cancel-before-completion.js';

/**
 * The probe as a client that keeps both clocks: progress resets the idle timeout, nothing extends the maximum.
 * When one fires it cancels with the transport's signal and stops waiting; afterwards nothing may arrive.
 */
export const clientTimeouts: ProbeCheck = {
  id: 'client-timeouts',
  title: 'idle and maximum timeouts enforced by the client, with the transport’s signal',
  basis:
    'implementations SHOULD set timeouts and on expiry cancel with the transport’s signal; ' +
    'progress MAY reset the clock but a maximum SHOULD always be enforced',
  async run(context) {
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('skip', `no long-running tool: ${context.plan.noLongTool}`);
    if (context.measured.longToolBroken !== undefined) return outcome('skip', `not run: ${context.measured.longToolBroken}`);
    const { idleMs, maxMs, source } = context.plan.timeouts;
    const call = await context.session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const started = call.sentAt;
    let idleFrom = started;
    let progressCount = 0;
    const clocks = `timeouts from ${source}: idle ${idleMs} ms, maximum ${maxMs} ms`;
    for (;;) {
      const now = context.clock();
      const maxLeft = started + maxMs - now;
      const idleLeft = idleFrom + idleMs - now;
      if (maxLeft <= 0 || idleLeft <= 0) {
        const reason = maxLeft <= 0 ? 'maximum timeout' : 'idle timeout';
        const firedAt = Math.round(now - started);
        const { signal, notification } = await context.session.cancel(call, `mcprely probe: ${reason}`, context.owner);
        const watched = await pause(context, watchAfterCancel(context, firedAt));
        const details = [
          clocks,
          `${progressCount} progress notification(s) reset the idle clock`,
          `watched ${watched} ms after the cancellation`,
        ];
        const problems = violations(call, notification?.answer?.text);
        const watch = { calls: [call], notifications: notification === undefined ? [] : [notification] };
        const how = signal === 'close-stream' ? 'the closing of the stream' : 'notifications/cancelled';
        if (problems.length > 0)
          return outcome(
            'fail',
            `the ${reason} fired ${firedAt} ms after the request and the probe cancelled with ${how}, but ${problems[0]}`,
            [...problems.slice(1), ...details],
            watch,
          );
        return outcome(
          'pass',
          `the ${reason} fired ${firedAt} ms after the request; the probe cancelled with ${how} and nothing followed`,
          details,
          watch,
        );
      }
      const next = await call.inbox.next(() => true, Math.min(maxLeft, idleLeft));
      if (next === undefined) {
        const why = call.inbox.why;
        if (why !== undefined) {
          await context.session.giveUp(call, why, context.owner);
          return outcome('fail', `the request ended without an answer: ${why}`, [clocks]);
        }
        continue;
      }
      if (isResponse(next.message)) {
        return outcome(
          'pass',
          `${tool.name} answered ${since(call, next)} ms after the request, ` +
            `within idle ${idleMs} ms and maximum ${maxMs} ms (${source}); no timeout had to fire`,
          [`${progressCount} progress notification(s) reset the idle clock`],
        );
      }
      if (isProgress(next.message)) {
        progressCount++;
        idleFrom = next.at;
      }
    }
  },
};
