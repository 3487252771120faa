import { outcome, type ProbeCheck } from '../probe-types.js';
import { describeMessage, isProgress, isResponse, observe } from './observe.js';

/** Run the long tool to completion: progress strictly increases, carries the request's own token, and stops at completion. */
export const progressToCompletion: ProbeCheck = {
  id: 'progress',
  title: 'progress strictly increases, carries its own token, stops at completion',
  basis:
    'progress "MUST increase with each notification"; notifications MUST reference only active requests and "MUST stop after completion"',
  async run(context) {
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('skip', 'no long-running tool: name one with --operation (and --arguments) or in the manifest');
    const started = context.clock();
    const handle = await context.session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true);
    const limit = context.plan.requestTimeoutMs;
    const response = await handle.messages.next(isResponse, limit);
    // What is still queued arrived before the response, in arrival order.
    const progress = handle.messages.take(() => true).filter((received) => isProgress(received.message));
    if (response === undefined) {
      handle.closeStream();
      return outcome(
        'fail',
        `no response within the probe's maximum of ${limit} ms${handle.messages.closed ? ` (${handle.messages.closed})` : ''}: the server stalls`,
        [`${progress.length} progress notification(s) before giving up`],
      );
    }
    context.measured.longToolMs = Math.round(response.at - started);
    const after = (await observe(handle, context.plan.graceMs)).filter((received) => isProgress(received.message));
    const problems: string[] = [];
    const values = progress.map((received) => (received.message['params'] as { progress?: unknown })?.progress);
    for (let i = 1; i < values.length; i++) {
      if (!(typeof values[i] === 'number' && typeof values[i - 1] === 'number' && (values[i] as number) > (values[i - 1] as number)))
        problems.push(`progress ${JSON.stringify(values[i])} follows ${JSON.stringify(values[i - 1])}: not strictly increasing`);
    }
    const tokens = new Set(
      progress.map((received) => JSON.stringify((received.message['params'] as { progressToken?: unknown })?.progressToken)),
    );
    for (const token of tokens)
      if (token !== JSON.stringify(handle.progressToken))
        problems.push(`progress carries the token ${token}, not the request's ${JSON.stringify(handle.progressToken)}`);
    if (after.length > 0) problems.push(`${after.map(describeMessage).join(', ')} after the response`);
    const details = [
      `${progress.length} progress notification(s): ${JSON.stringify(values)}; response ${Math.round(response.at - started)} ms after the request`,
    ];
    if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), ...details]);
    if (progress.length === 0) return outcome('skip', `${tool.name} sent no progress (it may send none): nothing to check`, details);
    return outcome('pass', `${progress.length} increasing values with the request's token, none after the response`, details);
  },
};
