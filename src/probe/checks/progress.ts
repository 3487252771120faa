import { progress } from '../check-declarations/progress.js';
import { outcome, type ProbeCheck, RESERVE_MS, since } from '../probe-types.js';
import { plural } from '../../text/plural.js';
import { describeMessage, toolFailed } from './observe.js';
import { taskRequired } from './tasks.js';
import { METHODS } from '../../protocol/methods.js';

/** Run the long tool to completion: progress strictly increases, carries the request's own token, and stops at completion. */
export const progressToCompletion: ProbeCheck<'progress'> = {
  ...progress,
  async run(context) {
    const asTask = taskRequired(context);
    if (asTask !== undefined) return asTask;
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('inconclusive', `no long-running tool: ${context.plan.noLongTool}`);
    const call = await context.session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const limit = Math.max(0, Math.min(context.plan.longRunMs, context.budgetLeft() - RESERVE_MS));
    const response = await call.inbox.waitForResponse(limit);
    const inbox = call.inbox;
    const seen = `${plural(inbox.progressCount, 'progress notification')} before that`;
    // How often it shows it is alive; a run that said nothing at all was silent for the whole wait.
    context.measured.longToolGapMs = Math.max(inbox.longestGapMs, response === undefined && inbox.progressCount === 0 ? limit : 0);
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
      const problems = progressProblems(inbox);
      if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), seen, ...cancelled]);
      return outcome(
        'inconclusive',
        `${tool.name} had not finished after ${limit} ms, the probe's limit for one run ` +
          `(${limit < context.plan.longRunMs ? "what was left of the probe's budget" : 'two fifths of --max-time, at most 65 s'}): ` +
          'progress up to then was right, its end was not seen; raise --max-time or give it shorter work with --arguments',
        [seen, ...cancelled],
        undefined,
        { completed: false, progress: inbox.progressCount },
      );
    }
    const failed = toolFailed(response.message);
    if (failed !== undefined) {
      context.measured.longToolBroken = `${tool.name} answered with ${failed}`;
      return outcome('inconclusive', `${tool.name} answered with ${failed}: nothing to check; give it working --arguments`);
    }
    context.measured.longToolMs = since(call, response);
    await inbox.watch(context.plan.graceMs);
    const problems = progressProblems(inbox);
    const values =
      inbox.progressValues.length < inbox.progressCount ? `${JSON.stringify(inbox.progressValues)}…` : JSON.stringify(inbox.progressValues);
    const details = [`${plural(inbox.progressCount, 'progress notification')}: ${values}; ${describeMessage(call, response)}`];
    if (inbox.coalesced > 0)
      details.push(
        `${plural(inbox.coalesced, 'queued progress notification')} coalesced to keep the probe's queue bounded; every value was checked as it arrived`,
      );
    const observed = { completed: true, progress: inbox.progressCount, durationMs: context.measured.longToolMs };
    if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), ...details], undefined, observed);
    if (inbox.progressCount === 0)
      return outcome(
        'inconclusive',
        `${tool.name} answered in ${context.measured.longToolMs} ms and sent no progress (a server may send none): no progress to judge`,
        details,
        undefined,
        observed,
      );
    return outcome(
      'pass',
      `${inbox.progressCount} increasing values with the request's token, none after the response`,
      details,
      undefined,
      observed,
    );
  },
};

function progressProblems(inbox: { notIncreasing: readonly string[]; progressAfterResponse: number; repeatedResponses: number }): string[] {
  const problems: string[] = inbox.notIncreasing.map((text) => `${text}: not strictly increasing`);
  if (inbox.progressAfterResponse > 0) problems.push(`${plural(inbox.progressAfterResponse, 'progress notification')} after the response`);
  if (inbox.repeatedResponses > 0) problems.push(`${plural(inbox.repeatedResponses, 'more response')} after the first`);
  return problems;
}
