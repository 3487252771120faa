import type { Call } from '../connection.js';
import type { CancelObservation, FiredTimeoutObservation, SilenceObservation } from '../../live/probe-observations.js';
import { type CheckOutcome, outcome, type ProbeContext, since } from '../probe-types.js';
import { answersCancellation, isProgress } from '../received.js';
import { knownBehaviour } from '../sdk-behaviours.js';
import { describeMessage, pause, workRunning } from './observe.js';
import { isResponse } from '../../protocol/message-guards.js';

/** What came for a cancelled request after its silence began, by kind: what the claims of a manifest are judged on. */
export function silenceFacts(call: Call): SilenceObservation {
  const after = call.inbox.afterSilence.map((received) => received.message);
  return {
    progressBeforeCancel: call.inbox.progressAtCancel,
    progressAfterCancel: after.some(isProgress),
    resultAfterCancel: after.some((message) => isResponse(message) && !answersCancellation(message)),
    answeredCancellation: after.some(answersCancellation),
  };
}

/** The outcome of a cancellation's silence: failed by what came, not observable where nothing could come, else passed. */
export function judgeSilence<Observation extends CancelObservation | FiredTimeoutObservation>(
  context: ProbeContext,
  seen: {
    call: Call;
    signal: 'close-stream' | 'notification';
    problems: string[];
    details: string[];
    watch: NonNullable<CheckOutcome['watch']>;
    observed: Omit<Observation, keyof SilenceObservation>;
    watched: number;
    witness?: Call | undefined;
    lead?: string;
  },
): CheckOutcome<Observation> {
  const { call, problems, details, watch } = seen;
  const lead = seen.lead ?? '';
  const observed = { ...seen.observed, ...silenceFacts(call) } as Observation;
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
  // The run finished before the cancellation took effect: its response crossed it, so nothing was cancelled.
  const response = call.inbox.response;
  if (response !== undefined && !answersCancellation(response.message))
    return outcome(
      'inconclusive',
      `${lead}the response of request ${call.id} came ${since(call, response)} ms after it, crossing the cancellation: ` +
        'the run finished before the cancellation took effect, so nothing was cancelled; give it longer work with --arguments',
      details,
      watch,
      observed,
    );
  if (observed.workRunning === 0)
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
  ownRuns: () => number | undefined = () => 0,
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
  // Late enough for a server that stops at its next checkpoint (one gap between messages, plus the allowance), early
  // enough that work which ignores the cancellation would still run (half the run's rest).
  const checkpoint = (context.measured.longToolGapMs ?? 0) + context.session.inFlightMs;
  const askAt = Math.max(100, checkpoint, Math.min(context.plan.graceMs, (restMs ?? context.plan.graceMs * 2) / 2));
  if (restMs !== undefined && askAt >= restMs)
    return {
      watched: await pause(context, watchMs),
      text: `${tool} was not asked: the run would end (in ${restMs} ms) before a server that stops at its next checkpoint could show it`,
    };
  const started = Date.now();
  await pause(context, Math.min(askAt, watchMs));
  const asked = await workRunning(context);
  const own = ownRuns();
  const after =
    'unreadable' in asked
      ? asked
      : own === undefined
        ? { unreadable: "the probe's own run beside it had shown no work yet, so whether the status counts it cannot be told" }
        : { active: Math.max(0, asked.active - own) };
  const watched = Date.now() - started + (await pause(context, Math.max(0, watchMs - (Date.now() - started))));
  if ('unreadable' in after) return { watched, text: `the status tool could not be read after the cancellation: ${after.unreadable}` };
  return {
    watched,
    running: after.active,
    text:
      `${tool} said ${before.active} running before the cancellation and ${after.active} about ${Math.round(askAt)} ms after it` +
      (own === 0 || own === undefined ? '' : ` (not counting the probe's own run beside it)`),
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
