import { outcome, watchAfterCancel, type ProbeCheck } from '../probe-types.js';
import { describeMessage, isProgress, isResponse, observe } from './observe.js';

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
    if (tool === undefined) return outcome('skip', 'no long-running tool: name one with --operation (and --arguments) or in the manifest');
    const { idleMs, maxMs, source } = context.plan.timeouts;
    const handle = await context.session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true);
    const started = context.clock();
    let idleFrom = started;
    let progressCount = 0;
    for (;;) {
      const now = context.clock();
      const maxLeft = started + maxMs - now;
      const idleLeft = idleFrom + idleMs - now;
      if (maxLeft <= 0 || idleLeft <= 0) {
        const reason = maxLeft <= 0 ? 'maximum timeout' : 'idle timeout';
        const signal = await context.session.cancel(handle, `mcprely probe: ${reason}`);
        const after = (await observe(handle, watchAfterCancel(context, now - started))).filter(
          (received) => isResponse(received.message) || isProgress(received.message),
        );
        const details = [
          `timeouts from ${source}: idle ${idleMs} ms, maximum ${maxMs} ms`,
          `${progressCount} progress notification(s) reset the idle clock`,
        ];
        if (after.length > 0)
          return outcome(
            'fail',
            `the ${reason} fired at ${Math.round(now - started)} ms and the probe cancelled with ${signal}, ` +
              `but the server then sent ${after.map(describeMessage).join(', ')}`,
            details,
          );
        return outcome(
          'pass',
          `the ${reason} fired at ${Math.round(now - started)} ms; the probe cancelled with ` +
            `${signal === 'close-stream' ? 'the closing of the stream' : 'notifications/cancelled'} and nothing followed`,
          details,
        );
      }
      const next = await handle.messages.next(() => true, Math.min(maxLeft, idleLeft));
      if (next === undefined) {
        if (handle.messages.closed !== undefined && context.clock() < started + Math.min(maxMs, idleMs))
          return outcome('fail', `the request ended without an answer: ${handle.messages.closed}`);
        continue;
      }
      if (isResponse(next.message))
        return outcome(
          'pass',
          `${tool.name} answered after ${Math.round(next.at - started)} ms, ` +
            `within idle ${idleMs} ms and maximum ${maxMs} ms (${source}); no timeout had to fire`,
          [`${progressCount} progress notification(s) reset the idle clock`],
        );
      if (isProgress(next.message)) {
        progressCount++;
        idleFrom = context.clock();
      }
    }
  },
};
