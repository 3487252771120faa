import { outcome, type ProbeCheck, since } from '../probe-types.js';
import { describeMessage, toolFailed } from './observe.js';

/** Run the long tool to completion: progress strictly increases, carries the request's own token, and stops at completion. */
export const progressToCompletion: ProbeCheck = {
  id: 'progress',
  title: 'progress strictly increases, carries its own token, stops at completion',
  basis:
    'progress "MUST increase with each notification"; notifications MUST reference only active requests and "MUST stop after completion"',
  async run(context) {
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('skip', `no long-running tool: ${context.plan.noLongTool}`);
    const call = await context.session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const limit = context.plan.requestTimeoutMs;
    const response = await call.inbox.waitForResponse(limit);
    const inbox = call.inbox;
    const seen = `${inbox.progressCount} progress notification(s) before that`;
    if (response === undefined) {
      // The probe keeps the rule it checks: a request it gives up on is cancelled with the transport's signal.
      const why = inbox.why;
      const signal = await context.session.giveUp(call, why ?? `no response within ${limit} ms`, context.owner);
      const cancelled =
        signal === undefined
          ? []
          : [`the probe cancelled the request with ${signal === 'close-stream' ? 'the closing of its stream' : 'notifications/cancelled'}`];
      if (why !== undefined) {
        context.measured.longToolBroken = `${tool.name} could not be called: ${why}`;
        return outcome('fail', why, [seen, ...cancelled]);
      }
      context.measured.longToolBroken = `${tool.name} never answered in the progress check (${limit} ms)`;
      return outcome('fail', `no response within ${limit} ms: the server stalls`, [seen, ...cancelled]);
    }
    const failed = toolFailed(response.message);
    if (failed !== undefined) {
      context.measured.longToolBroken = `${tool.name} answered with ${failed}`;
      return outcome('skip', `${tool.name} answered with ${failed}: nothing to check (give it working --arguments)`);
    }
    context.measured.longToolMs = since(call, response);
    await inbox.watch(context.plan.graceMs);
    const problems: string[] = inbox.notIncreasing.map((text) => `${text}: not strictly increasing`);
    if (inbox.progressAfterResponse > 0) problems.push(`${inbox.progressAfterResponse} progress notification(s) after the response`);
    if (inbox.repeatedResponses > 0) problems.push(`${inbox.repeatedResponses} more response(s) to request ${call.id} after the first`);
    const values =
      inbox.progressValues.length < inbox.progressCount ? `${JSON.stringify(inbox.progressValues)}…` : JSON.stringify(inbox.progressValues);
    const details = [`${inbox.progressCount} progress notification(s): ${values}; ${describeMessage(call, response)}`];
    if (inbox.coalesced > 0)
      details.push(
        `${inbox.coalesced} queued progress notification(s) coalesced to keep the probe's queue bounded; every value was checked as it arrived`,
      );
    if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), ...details]);
    if (inbox.progressCount === 0) return outcome('skip', `${tool.name} sent no progress (it may send none): nothing to check`, details);
    return outcome('pass', `${inbox.progressCount} increasing values with the request's token, none after the response`, details);
  },
};
