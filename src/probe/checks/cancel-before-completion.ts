import type { CancelObservation } from '../../live/probe-observations.js';
import { cancelBeforeCompletion as declared } from '../check-declarations/cancel-before-completion.js';
import { factsOf } from '../../spec/revision-facts.js';
import { plural } from '../../text/plural.js';
import { outcome, type ProbeCheck, type ProbeContext, since, watchAfterCancel } from '../probe-types.js';
import { describeMessage, healthy, workRunning } from './observe.js';
import { silenceRecord, watchWork } from './silence.js';
import { judgeSilence } from './silence-judgement.js';
import { messagesOf } from '../check-message.js';
import { taskRequired } from './task-wire.js';
import { isResponse } from '../../protocol/message-guards.js';
import { METHODS } from '../../protocol/methods.js';

/**
 * Cancel a long request mid-flight with the transport's signal; afterwards nothing more may come for it — on
 * its own stream, on another request's stream, or as an answer to the cancellation. Judged by content first:
 * an answer to the cancellation fails whenever it arrives; only progress or a result that reached the probe
 * within the in-flight allowance crossed the cancellation on the wire. Where closing the stream is the
 * cancellation, nothing can reach the probe on it: whether the work stopped is not observable there, unless
 * the manifest names a status tool (probe.workStatus) through which the probe asks.
 */
const silenceMessage = messagesOf(declared);

/** How long the check waits for a first sign of work before it cancels: a third of a run of known length, at most 1.5 s. */
function firstSignMs(context: ProbeContext): number {
  const measuredMs = context.measured.longToolMs;
  return Math.min(1500, measuredMs === undefined ? 1500 : Math.max(20, measuredMs / 3));
}

/**
 * How long it watches after the cancellation: to the run's natural end (`watchAfterCancel`); a grace period when the
 * tool stalled uncancelled, whose silence after a cancellation is the silence it keeps anyway.
 */
function watchMsAfter(context: ProbeContext, cancelledAfterMs: number): number {
  return context.measured.stall === undefined
    ? watchAfterCancel(context, cancelledAfterMs)
    : Math.min(context.plan.graceMs, watchAfterCancel(context, cancelledAfterMs));
}

export const cancelBeforeCompletion: ProbeCheck<'cancel-before-completion'> = {
  ...declared,
  limit(context) {
    const tool = context.plan.longTool;
    if (tool === undefined || tool.taskSupport === 'required' || context.measured.longToolBroken !== undefined) return undefined;
    return {
      tool: tool.name,
      ms: firstSignMs(context) + watchMsAfter(context, 0),
      waitsFor: 'a sign of work, then anything after its cancellation',
    };
  },
  async run(context) {
    const asTask = taskRequired(context);
    if (asTask !== undefined) return asTask;
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('inconclusive', `no long-running tool to cancel: ${context.plan.noLongTool}`);
    if (context.measured.longToolBroken !== undefined) return outcome('inconclusive', `not run: ${context.measured.longToolBroken}`);
    const session = context.session;
    const call = await session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    // Cancel at the first sign of work, or a third of the way through a run of known length, at most 1.5 s in.
    const measuredMs = context.measured.longToolMs;
    const first = await call.inbox.next(() => true, firstSignMs(context));
    if (first !== undefined && isResponse(first.message))
      return outcome(
        'inconclusive',
        `${tool.name} answered ${since(call, first)} ms after the request, before a cancellation could be sent: ` +
          'give it longer work with --arguments',
      );
    const ended = first === undefined ? call.inbox.why : undefined;
    if (ended !== undefined) {
      await session.giveUp(call, ended, context.owner);
      return outcome('fail', `the request ended before it could be cancelled: ${ended}`);
    }
    const before = context.plan.workStatus === undefined ? undefined : await workRunning(context);
    if (call.inbox.response !== undefined)
      return outcome(
        'inconclusive',
        `${tool.name} answered ${since(call, call.inbox.response)} ms after the request, while the probe asked ${context.plan.workStatus?.tool} ` +
          'what was running, before a cancellation could be sent: give it longer work with --arguments',
      );
    const { signal, notification } = await session.cancel(call, 'mcprely probe: cancel before completion', context.owner);
    const cancelledAfter = Math.round(call.cancelledAt! - call.sentAt);
    const details = [
      `cancelled ${cancelledAfter} ms after the request, ` +
        `${first === undefined ? 'with no message from the server yet' : `after ${describeMessage(call, first)}`}, ` +
        `with ${signal === 'close-stream' ? 'the closing of the response stream' : 'notifications/cancelled'}`,
    ];
    // Where the closed stream is the cancellation, a second request's stream must not carry the first one's messages.
    const witness =
      signal === 'close-stream' && factsOf(context.revision)['request-scoped-notifications'].value === 'originating-stream'
        ? await session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner)
        : undefined;
    const watchMs = watchMsAfter(context, cancelledAfter);
    // The witness is the probe's own run of the tool: the status tool counts it while it is open and working
    // (it has sent progress); open without a sign of work, nobody can tell whether it is counted.
    const witnessRuns = (): number | undefined => {
      if (witness === undefined || witness.inbox.response !== undefined || witness.inbox.closed !== undefined) return 0;
      return witness.inbox.progressCount > 0 ? 1 : undefined;
    };
    const work = await watchWork(context, before, watchMs, measuredMs === undefined ? undefined : measuredMs - cancelledAfter, witnessRuns);
    witness?.closeStream();
    const rest = measuredMs === undefined ? undefined : measuredMs - cancelledAfter;
    const toNaturalEnd = rest !== undefined && work.watched >= rest;
    details.push(
      `watched ${work.watched} ms for anything more about request ${call.id}` +
        `${
          context.measured.stall !== undefined
            ? ` (a grace period only: ${tool.name} sent nothing for ${context.measured.stall.silentMs} ms uncancelled in ${context.measured.stall.check})`
            : measuredMs === undefined
              ? " (the tool's length is unknown: it outlasted the progress check)"
              : ` (uncancelled, the tool takes ${measuredMs} ms)`
        }` +
        `${witness === undefined ? '' : `, with request ${witness.id} open beside it`}`,
    );
    details.push(
      `in-flight allowance: ${session.inFlightMs} ms after the cancellation (twice the slowest round trip measured, within 100 ms to 1 s) ` +
        `for progress or a result already on the wire; ` +
        `${call.inbox.heldUpMs === 0 ? '' : `plus ${call.inbox.heldUpMs} ms the probe itself was held up; `}` +
        `${plural(call.inbox.crossedCancellation, 'message')} crossed it on the wire; an answer to the cancellation is never excused`,
    );
    if (work.text !== undefined) details.push(work.text);
    const sick = await healthy(context);
    // Judged after the last request of the check: its stream may carry the cancelled request's messages too.
    const watch = { calls: [call], notifications: notification === undefined ? [] : [notification] };
    const observed = {
      signal,
      watchedMs: work.watched,
      toNaturalEnd,
      ...(work.running === undefined ? {} : { workRunning: work.running }),
    };
    const judgedSilence = judgeSilence<CancelObservation>(
      {
        call,
        signal,
        ...silenceRecord(context, notification, work.running),
        ...(sick === undefined ? {} : { unhealthy: sick }),
        ...(context.measured.stall === undefined ? {} : { stall: context.measured.stall }),
        details,
        observed,
        watchedMs: work.watched,
        ...(witness === undefined ? {} : { witness }),
      },
      silenceMessage,
    );
    // Nothing came until the run would have ended uncancelled: the timeouts check need not watch that long again. A
    // response that crossed the cancellation (inconclusive) ended the run early: its silence after that shows nothing.
    if (toNaturalEnd && judgedSilence.status === 'pass' && signal !== 'close-stream') context.measured.silentToNaturalEnd = true;
    return { ...judgedSilence, watch };
  },
};
