import { progress } from '../check-declarations/progress.js';
import { messagesOf } from '../check-message.js';
import { judged, type ProbeCheck, runLimitMs, since } from '../probe-types.js';
import { judgeProgress } from './progress-judgement.js';
import { taskRequired } from './task-wire.js';
import { METHODS } from '../../protocol/methods.js';

const message = messagesOf(progress);

/**
 * Runs the long tool to completion with a progress token of its own, gives up (cancelling) at the probe's limit for one
 * run, and watches a grace period after the response; `judgeProgress` judges what was recorded.
 */
export const progressToCompletion: ProbeCheck<'progress'> = {
  ...progress,
  limit(context) {
    const tool = context.plan.longTool;
    if (tool === undefined || tool.taskSupport === 'required') return undefined;
    return { tool: tool.name, ms: runLimitMs(context), waitsFor: 'its response' };
  },
  async run(context) {
    const asTask = taskRequired(context);
    if (asTask !== undefined) return asTask;
    const tool = context.plan.longTool;
    if (tool === undefined) return judged('inconclusive', message('noLongTool', { why: String(context.plan.noLongTool) }));
    const call = await context.session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const limit = runLimitMs(context);
    const response = await call.inbox.waitForResponse(limit);
    const inbox = call.inbox;
    const progressCount = inbox.progressCount;
    // How often it shows it is alive; a run that said nothing at all was silent for the whole wait.
    context.measured.longToolGapMs = Math.max(inbox.longestGapMs, response === undefined && progressCount === 0 ? limit : 0);
    const run = {
      tool: tool.name,
      call,
      limitMs: limit,
      limitedByBudget: limit < context.plan.longRunMs,
      timeouts: context.plan.timeouts,
    };
    if (response === undefined) {
      // Told the moment the limit passes, before the cancellation: the tool went quiet, and the later checks will know it.
      const why = inbox.why;
      const quiet = why === undefined ? judgeProgress({ ...run, unanswered: { progressCount } }).stall : undefined;
      if (quiet !== undefined) context.tell({ kind: 'stalled', check: context.owner, stall: quiet });
      // The probe keeps the rule it checks: a request it gives up on is cancelled with the transport's signal.
      const signal = await context.session.giveUp(call, why ?? `no response within ${limit} ms`, context.owner);
      const verdict = judgeProgress({
        ...run,
        unanswered: { ...(why === undefined ? {} : { why }), progressCount, ...(signal === undefined ? {} : { signal }) },
      });
      if (verdict.broken !== undefined) context.measured.longToolBroken = verdict.broken;
      // The stall told before the cancellation is the one the later checks read: a message that arrived while the probe
      // gave up (after it had been silent the whole limit) must not undo what stderr already said.
      const stall = quiet ?? verdict.stall;
      if (stall !== undefined) context.measured.stall = stall;
      return verdict.outcome;
    }
    // A tool that failed judged nothing, and cannot be called again; else the run's length times the later checks.
    const answered = judgeProgress(run);
    if (answered.broken !== undefined) {
      context.measured.longToolBroken = answered.broken;
      return answered.outcome;
    }
    context.measured.longToolMs = since(call, response);
    await inbox.watch(context.plan.graceMs);
    return judgeProgress(run).outcome;
  },
};
