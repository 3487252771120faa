import { outcome, watchAfterCancel, type ProbeCheck } from '../probe-types.js';
import { describeMessage, healthy, isProgress, isResponse, observe } from './observe.js';

/** Cancel a long request mid-flight with the transport's signal; afterwards nothing more may come for it. */
export const cancelBeforeCompletion: ProbeCheck = {
  id: 'cancel-before-completion',
  title: 'cancellation before completion: no response and no further message afterwards',
  basis:
    'the receiver SHOULD stop and send no response (both revisions); where closing the HTTP stream is the cancellation, ' +
    'the server MUST NOT send further messages',
  async run(context) {
    const tool = context.plan.longTool;
    if (tool === undefined)
      return outcome('skip', 'no long-running tool to cancel: name one with --operation (and --arguments) or in the manifest');
    const started = context.clock();
    const handle = await context.session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true);
    const first = await handle.messages.next(() => true, Math.min(1500, context.plan.requestTimeoutMs));
    if (first !== undefined && isResponse(first.message))
      return outcome(
        'skip',
        `${tool.name} answered after ${Math.round(first.at)} ms, before a cancellation could be sent: give it longer work with --arguments`,
      );
    if (first === undefined && handle.messages.closed !== undefined)
      return outcome('fail', `the request ended without an answer: ${handle.messages.closed}`);
    const signal = await context.session.cancel(handle, 'mcprely probe: cancel before completion');
    const details = [
      `cancelled ${first === undefined ? 'after 1.5 s without progress' : `after ${describeMessage(first)}`}, ` +
        `with ${signal === 'close-stream' ? 'the closing of the response stream' : 'notifications/cancelled'}`,
    ];
    const watch = Math.round(watchAfterCancel(context, context.clock() - started));
    details.push(
      `watched ${watch} ms for anything more about the request` +
        `${context.measured.longToolMs === undefined ? '' : ` (uncancelled, the tool takes ${context.measured.longToolMs} ms)`}`,
    );
    const after = await observe(handle, watch);
    const late = after.filter((received) => isResponse(received.message) || isProgress(received.message));
    if (signal === 'close-stream')
      details.push('the stream is closed: whatever the server still writes for the request cannot reach the client');
    const sick = await healthy(context);
    if (sick !== undefined) details.push(sick);
    if (late.length > 0) return outcome('fail', `the server sent ${late.map(describeMessage).join(', ')} after the cancellation`, details);
    if (sick !== undefined) return outcome('fail', 'the server did not survive the cancellation', details);
    return outcome('pass', `nothing for the request in the ${watch} ms after the cancellation; the server still answers`, details);
  },
};
