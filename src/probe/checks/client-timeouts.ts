import type { FiredTimeoutObservation } from '../../live/probe-observations.js';
import { clientTimeouts as declared } from '../check-declarations/client-timeouts.js';
import { outcome, type ProbeCheck, type ProbeContext, RESERVE_MS, since, watchAfterCancel } from '../probe-types.js';
import { plural } from '../../text/plural.js';
import { isProgress } from '../received.js';
import { workRunning } from './observe.js';
import { silenceRecord, watchWork } from './silence.js';
import { judgeSilence } from './silence-judgement.js';
import { messagesOf } from '../check-message.js';
import { taskRequired } from './task-wire.js';
import { judgeTimeoutsAfterStall } from './client-timeouts-judgement.js';
import { isResponse } from '../../protocol/message-guards.js';
import { METHODS } from '../../protocol/methods.js';

/** The timeouts the check plays, and why: as declared, or a maximum brought inside a run the declared ones would not interrupt. */
export function playedTimeouts(context: ProbeContext): { idleMs: number; maxMs: number; how: string } {
  const { idleMs, maxMs, source } = context.plan.timeouts;
  const declared = `timeouts from ${source}: idle ${idleMs} ms, maximum ${maxMs} ms`;
  const length = context.measured.longToolMs;
  const gap = context.measured.longToolGapMs ?? 0;
  // A run of known length that neither clock would interrupt: the maximum is played at half of it, so it fires mid-work.
  if (length !== undefined && maxMs >= length && idleMs >= Math.max(gap, 1) && length >= 40) {
    const played = Math.max(20, Math.round(length / 2));
    return {
      idleMs,
      maxMs: played,
      how:
        `${declared}; ${context.plan.longTool?.name} runs ${length} ms, so neither would fire: the maximum is played at ${played} ms, ` +
        'half the run, to see what the server does when a client gives up mid-work (pass --max-timeout to choose)',
    };
  }
  return { idleMs, maxMs, how: declared };
}

/**
 * The probe as a client that keeps both clocks: progress resets the idle timeout, nothing extends the maximum.
 * When one fires it cancels with the transport's signal and stops waiting; afterwards nothing may arrive. A run
 * that ends before either fires exercised nothing: inconclusive, never a pass.
 */
const silenceMessage = messagesOf(declared);

export const clientTimeouts: ProbeCheck<'client-timeouts'> = {
  ...declared,
  limit(context) {
    const tool = context.plan.longTool;
    const measured = context.measured;
    if (tool === undefined || tool.taskSupport === 'required' || measured.longToolBroken !== undefined || measured.stall !== undefined)
      return undefined;
    const { idleMs, maxMs } = playedTimeouts(context);
    // The maximum always fires by then (the idle one may fire sooner); the watch after it is at most this long.
    const watchMs = measured.silentToNaturalEnd === true ? context.plan.graceMs : watchAfterCancel(context, Math.min(idleMs, maxMs));
    return { tool: tool.name, ms: maxMs + watchMs, waitsFor: 'a timeout to fire, then anything after its cancellation' };
  },
  async run(context) {
    const asTask = taskRequired(context);
    if (asTask !== undefined) return asTask;
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('inconclusive', `no long-running tool: ${context.plan.noLongTool}`);
    if (context.measured.longToolBroken !== undefined) return outcome('inconclusive', `not run: ${context.measured.longToolBroken}`);
    const { idleMs, maxMs, how } = playedTimeouts(context);
    if (context.measured.stall !== undefined) return judgeTimeoutsAfterStall(context.measured.stall, { idleMs, maxMs });
    if (Math.min(idleMs, maxMs) > context.budgetLeft() - RESERVE_MS)
      return outcome(
        'inconclusive',
        `not run: neither timeout (idle ${idleMs} ms, maximum ${maxMs} ms) fits in the ${Math.round(context.budgetLeft())} ms left of ` +
          "the probe's budget: raise --max-time or lower --max-timeout",
        [how],
      );
    const call = await context.session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const started = call.sentAt;
    let idleFrom = started;
    let progressCount = 0;
    for (;;) {
      const now = context.clock();
      const maxLeft = started + maxMs - now;
      const idleLeft = idleFrom + idleMs - now;
      if (maxLeft <= 0 || idleLeft <= 0) {
        const fired = maxLeft <= 0 ? 'maximum' : 'idle';
        const firedAt = Math.round(now - started);
        const before = context.plan.workStatus === undefined ? undefined : await workRunning(context);
        // Answered while the probe asked what was running: the run ended before the timeout could cancel it.
        if (call.inbox.response !== undefined)
          return outcome(
            'inconclusive',
            `the ${fired} timeout fired ${firedAt} ms after the request, but ${tool.name} answered ` +
              `${since(call, call.inbox.response)} ms after it, while the probe asked ${context.plan.workStatus?.tool} what was running: ` +
              'nothing was cancelled; give it longer work with --arguments',
            [how],
            undefined,
            { fired: 'none', progress: progressCount },
          );
        const { signal, notification } = await context.session.cancel(call, `mcprely probe: ${fired} timeout`, context.owner);
        // The watch to the run's natural end was kept by the cancellation check, which saw nothing: a grace period is enough here.
        const watchMs = context.measured.silentToNaturalEnd === true ? context.plan.graceMs : watchAfterCancel(context, firedAt);
        const length = context.measured.longToolMs;
        const work = await watchWork(context, before, watchMs, length === undefined ? undefined : length - firedAt);
        const watched = work.watched;
        const details = [
          how,
          `${plural(progressCount, 'progress notification')} reset the idle clock`,
          `watched ${watched} ms after the cancellation` +
            (context.measured.silentToNaturalEnd === true
              ? ' (the cancellation check already watched a cancelled run to its natural end and saw nothing)'
              : ''),
        ];
        if (work.text !== undefined) details.push(work.text);
        const signalWords = signal === 'close-stream' ? 'the closing of the stream' : 'notifications/cancelled';
        const watch = { calls: [call], notifications: notification === undefined ? [] : [notification] };
        const lead = { fired, firedAtMs: firedAt, signalWords };
        const judgedSilence = judgeSilence<FiredTimeoutObservation>(
          {
            call,
            signal,
            ...silenceRecord(context, notification, work.running),
            details,
            observed: {
              fired,
              firedAtMs: firedAt,
              progress: progressCount,
              signal,
              watchedMs: watched,
              ...(work.running === undefined ? {} : { workRunning: work.running }),
            },
            watchedMs: watched,
          },
          (messageId, data) => silenceMessage(messageId, { ...lead, ...data }),
        );
        return { ...judgedSilence, watch };
      }
      const next = await call.inbox.next(() => true, Math.min(maxLeft, idleLeft));
      if (next === undefined) {
        const why = call.inbox.why;
        if (why !== undefined) {
          await context.session.giveUp(call, why, context.owner);
          return outcome('fail', `the request ended without an answer: ${why}`, [how]);
        }
        continue;
      }
      if (isResponse(next.message)) {
        return outcome(
          'inconclusive',
          `${tool.name} answered ${since(call, next)} ms after the request, before either timeout fired (idle ${idleMs} ms, maximum ${maxMs} ms): ` +
            'nothing was cancelled; pass --max-timeout below the run to play it',
          [how, `${plural(progressCount, 'progress notification')} reset the idle clock`],
          undefined,
          { fired: 'none', progress: progressCount },
        );
      }
      if (isProgress(next.message)) {
        progressCount++;
        idleFrom = next.at;
      }
    }
  },
};
