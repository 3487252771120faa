import { factsOf } from '../../spec/revision-facts.js';
import type { Call } from '../connection.js';
import { type CheckOutcome, type Observed, outcome, type ProbeCheck, type ProbeContext, since, watchAfterCancel } from '../probe-types.js';
import { answersCancellation, isProgress, isResponse } from '../received.js';
import { knownBehaviour } from '../sdk-behaviours.js';
import { describeMessage, healthy, pause, workRunning } from './observe.js';
import { taskRequired } from './tasks.js';

/**
 * Cancel a long request mid-flight with the transport's signal; afterwards nothing more may come for it — on
 * its own stream, on another request's stream, or as an answer to the cancellation. Judged by content first:
 * an answer to the cancellation fails whenever it arrives; only progress or a result that reached the probe
 * within the in-flight allowance crossed the cancellation on the wire. Where closing the stream is the
 * cancellation, nothing can reach the probe on it: whether the work stopped is not observable there, unless
 * the manifest names a status tool (probe.workStatus) through which the probe asks.
 */
export const cancelBeforeCompletion: ProbeCheck = {
  id: 'cancel-before-completion',
  title: 'cancellation before completion: no response and no further message afterwards',
  basis:
    'the receiver SHOULD stop and send no response (both revisions); where closing the HTTP stream is the cancellation, ' +
    'the server MUST NOT send further messages',
  fix: 'on cancellation, stop the work at its next checkpoint and send nothing more for the request: no progress, no result, no error',
  async run(context) {
    const asTask = taskRequired(context);
    if (asTask !== undefined) return asTask;
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('inconclusive', `no long-running tool to cancel: ${context.plan.noLongTool}`);
    if (context.measured.longToolBroken !== undefined) return outcome('inconclusive', `not run: ${context.measured.longToolBroken}`);
    const session = context.session;
    const call = await session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner);
    // Cancel at the first sign of work, or a third of the way through a run of known length, at most 1.5 s in.
    const measuredMs = context.measured.longToolMs;
    const first = await call.inbox.next(() => true, Math.min(1500, measuredMs === undefined ? 1500 : Math.max(20, measuredMs / 3)));
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
        ? await session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner)
        : undefined;
    const watchMs = watchAfterCancel(context, cancelledAfter);
    // The witness is the probe's own run of the tool: the status tool counts it while it is open.
    const witnessRuns = () => (witness !== undefined && witness.inbox.response === undefined && witness.inbox.closed === undefined ? 1 : 0);
    const work = await watchWork(context, before, watchMs, measuredMs === undefined ? undefined : measuredMs - cancelledAfter, witnessRuns);
    witness?.closeStream();
    const rest = measuredMs === undefined ? undefined : measuredMs - cancelledAfter;
    const toNaturalEnd = rest !== undefined && work.watched >= rest;
    details.push(
      `watched ${work.watched} ms for anything more about request ${call.id}` +
        `${measuredMs === undefined ? " (the tool's length is unknown: it outlasted the progress check)" : ` (uncancelled, the tool takes ${measuredMs} ms)`}` +
        `${witness === undefined ? '' : `, with request ${witness.id} open beside it`}`,
    );
    details.push(
      `in-flight allowance: ${session.inFlightMs} ms after the cancellation (twice the slowest round trip measured, within 100 ms to 1 s) ` +
        `for progress or a result already on the wire; ` +
        `${call.inbox.heldUpMs === 0 ? '' : `plus ${call.inbox.heldUpMs} ms the probe itself was held up; `}` +
        `${call.inbox.crossedCancellation} message(s) crossed it on the wire; an answer to the cancellation is never excused`,
    );
    if (work.text !== undefined) details.push(work.text);
    const sick = await healthy(context);
    // Judged after the last request of the check: its stream may carry the cancelled request's messages too.
    const problems = violations(call, notification?.answer?.text);
    if (work.running !== undefined && work.running > 0)
      problems.push(`the work went on after the cancellation: ${context.plan.workStatus!.tool} says ${work.running} still running`);
    if (sick !== undefined) problems.push(sick);
    const watch = { calls: [call], notifications: notification === undefined ? [] : [notification] };
    if (toNaturalEnd && problems.length === 0 && signal !== 'close-stream') context.measured.silentToNaturalEnd = true;
    const observed = {
      signal,
      watchedMs: work.watched,
      toNaturalEnd,
      ...(work.running === undefined ? {} : { workRunning: work.running }),
    };
    return judgeSilence(context, { call, signal, problems, details, watch, observed, watched: work.watched, witness });
  },
};

/** The outcome of a cancellation's silence: failed by what came, not observable where nothing could come, else passed. */
export function judgeSilence(
  context: ProbeContext,
  seen: {
    call: Call;
    signal: 'close-stream' | 'notification';
    problems: string[];
    details: string[];
    watch: NonNullable<CheckOutcome['watch']>;
    observed: Record<string, string | number | boolean>;
    watched: number;
    witness?: Call | undefined;
    lead?: string;
  },
): CheckOutcome {
  const { call, problems, details, watch } = seen;
  const lead = seen.lead ?? '';
  // What came after the silence began, by kind: what the claims of the manifest are judged on.
  const after = call.inbox.afterSilence.map((received) => received.message);
  const observed: Observed = {
    ...seen.observed,
    progressBeforeCancel: call.inbox.progressAtCancel,
    progressAfterCancel: after.some(isProgress),
    resultAfterCancel: after.some((message) => isResponse(message) && !answersCancellation(message)),
    answeredCancellation: after.some(answersCancellation),
  };
  if (problems.length > 0) {
    const known = knownBehaviour(call, context);
    return outcome(
      'fail',
      `${lead}${problems[0]!}`,
      [...problems.slice(1), ...details, ...(known === undefined ? [] : [known])],
      watch,
      observed,
    );
  }
  if (observed['workRunning'] === 0)
    return outcome(
      'pass',
      `${lead}the work stopped: ${context.plan.workStatus!.tool} says none is running after the cancellation, and nothing came for request ${call.id}`,
      details,
      watch,
      observed,
    );
  if (seen.signal === 'close-stream')
    return outcome(
      'not-observable',
      `${lead}closing the stream is the cancellation on ${context.revision} Streamable HTTP, so nothing for request ${call.id} can reach the probe on it: ` +
        'whether the work stopped cannot be seen on the wire (name a status tool in the manifest, probe.workStatus, to observe it)' +
        (seen.witness === undefined ? '' : `; nothing came for it on the stream of request ${seen.witness.id} either`),
      details,
      watch,
      observed,
    );
  return outcome(
    'pass',
    `${lead}nothing for request ${call.id} in the ${seen.watched} ms after the cancellation; the server still answers`,
    details,
    watch,
    observed,
  );
}

/**
 * Watches a cancelled request for `watchMs`; with a status tool, asks it once, early enough that work which ignores
 * the cancellation would still be running (half the run's rest, within the grace period).
 */
export async function watchWork(
  context: ProbeContext,
  before: { active: number } | { unreadable: string } | undefined,
  watchMs: number,
  restMs: number | undefined,
  ownRuns: () => number = () => 0,
): Promise<{ watched: number; running?: number; text?: string }> {
  if (before === undefined) return { watched: await pause(context, watchMs) };
  const tool = context.plan.workStatus!.tool;
  if ('unreadable' in before)
    return { watched: await pause(context, watchMs), text: `the status tool could not be read: ${before.unreadable}` };
  if (before.active < 1)
    return {
      watched: await pause(context, watchMs),
      text: `${tool} said ${before.active} running while the request was in flight: it does not show this work, so it was not asked again`,
    };
  const askAt = Math.max(100, Math.min(context.plan.graceMs, (restMs ?? context.plan.graceMs * 2) / 2));
  const started = Date.now();
  await pause(context, Math.min(askAt, watchMs));
  const own = ownRuns();
  const asked = await workRunning(context);
  const after = 'active' in asked ? { active: Math.max(0, asked.active - own) } : asked;
  const watched = Date.now() - started + (await pause(context, Math.max(0, watchMs - (Date.now() - started))));
  if ('unreadable' in after) return { watched, text: `the status tool could not be read after the cancellation: ${after.unreadable}` };
  return {
    watched,
    running: after.active,
    text:
      `${tool} said ${before.active} running before the cancellation and ${after.active} about ${Math.round(askAt)} ms after it` +
      (own === 0 ? '' : ` (not counting the probe's own run beside it)`),
  };
}

/** What the server sent about a cancelled request after the allowance, on any stream, and any answer to the cancellation. */
export function violations(call: Call, answer: string | undefined): string[] {
  const problems: string[] = [];
  const inbox = call.inbox;
  const elsewhere = inbox.onOtherStreams.filter((received) => call.cancelledAt !== undefined && received.at >= call.cancelledAt);
  if (elsewhere.length > 0) {
    const stream = elsewhere[0]!.stream;
    problems.push(
      `the server kept writing for the cancelled request ${call.id} on the response stream of request ${stream}: ` +
        elsewhere.map((received) => describeMessage(call, received)).join(', '),
    );
  }
  if (inbox.afterSilenceCount > 0) {
    const shown = inbox.afterSilence
      .map(
        (received) => `${describeMessage(call, received)}${answersCancellation(received.message) ? ' that answers the cancellation' : ''}`,
      )
      .join(', ');
    problems.push(
      `the server sent ${inbox.afterSilenceCount > inbox.afterSilence.length ? `${inbox.afterSilenceCount} messages, first ` : ''}` +
        `${shown} after the cancellation`,
    );
  }
  if (answer !== undefined) problems.push(`the server answered the cancellation (a notification gets no response): ${answer}`);
  return problems;
}
