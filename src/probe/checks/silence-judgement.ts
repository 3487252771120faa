import type { CancelObservation, CancelSignal, FiredTimeoutObservation, SilenceObservation } from '../../live/probe-observations.js';
import type { SilenceMessageId } from '../check-declarations/silence-messages.js';
import type { CheckMessage } from '../check-message.js';
import { type CheckOutcome, judged, since } from '../probe-types.js';
import { answersCancellation, isProgress } from '../received.js';
import { isResponse } from '../../protocol/message-guards.js';
import type { CancelledCall } from '../recorded-call.js';
import { knownBehaviour, type ProbedSession } from '../sdk-behaviours.js';
import { describeMessage } from './observe.js';
import type { Stall } from '../stall.js';

/** What came for a cancelled request after its silence began, by kind: what the claims of a manifest are judged on. */
export function silenceFacts(call: CancelledCall): SilenceObservation {
  const after = call.inbox.afterSilence.map((received) => received.message);
  return {
    progressBeforeCancel: call.inbox.progressAtCancel,
    progressAfterCancel: after.some(isProgress),
    resultAfterCancel: after.some((message) => isResponse(message) && !answersCancellation(message)),
    answeredCancellation: after.some(answersCancellation),
  };
}

/** The message maker of a check that cancels: the silence messages, with whatever arguments lead them. */
export type SilenceMessages = (messageId: SilenceMessageId, data: Readonly<Record<string, string | number>>) => CheckMessage;

/** What a check that cancels recorded of its cancelled request, and what it asked besides. */
export interface SilenceRun<Observation extends CancelObservation | FiredTimeoutObservation> {
  readonly call: CancelledCall;
  readonly signal: CancelSignal;
  readonly session: ProbedSession;
  /** The answer to the cancellation notification, in words, when one came. */
  readonly answer?: string;
  /** The status tool (probe.workStatus), and how much work it counted after the cancellation when it could tell. */
  readonly workStatus?: { readonly tool: string; readonly running?: number };
  /** Why the server no longer answered an ordinary request afterwards, when it did not. */
  readonly unhealthy?: string;
  readonly details: readonly string[];
  /** The check's own facts; the silence's are added. */
  readonly observed: Omit<Observation, keyof SilenceObservation>;
  readonly watchedMs: number;
  /** A second request open beside the cancelled one (whose stream must not carry its messages). */
  readonly witness?: { readonly id: number };
  /** The tool stalled uncancelled in an earlier check: its silence after the cancellation is the silence it keeps anyway. */
  readonly stall?: Stall;
}

/**
 * The outcome of a cancellation's silence: failed by what came (on any stream, after the in-flight allowance, or as an
 * answer to the cancellation), by work the status tool still counts, or by a server that stopped answering; inconclusive
 * when the response crossed the cancellation; not observable where closing the stream is the cancellation and no status
 * tool tells; inconclusive when the tool stalled uncancelled before (nothing after the cancellation shows nothing); else
 * passed. Pure.
 */
export function judgeSilence<Observation extends CancelObservation | FiredTimeoutObservation>(
  run: SilenceRun<Observation>,
  message: SilenceMessages,
): CheckOutcome<Observation> {
  const { call, details } = run;
  const request = call.id;
  const observed = { ...run.observed, ...silenceFacts(call) } as Observation;
  const problems = violations(call, run.answer, message);
  if (run.workStatus?.running !== undefined && run.workStatus.running > 0)
    problems.push(message('workWentOn', { tool: run.workStatus.tool, running: run.workStatus.running }));
  if (run.unhealthy !== undefined) problems.push(message('unhealthy', { why: run.unhealthy }));
  if (problems.length > 0) {
    const known = knownBehaviour(call, run.session);
    const rest = [...problems.slice(1).map((problem) => problem.text), ...details, ...(known === undefined ? [] : [known])];
    return judged('fail', problems[0]!, rest, undefined, observed);
  }
  // The run finished before the cancellation took effect: its response crossed it, so nothing was cancelled.
  const response = call.inbox.response;
  if (response !== undefined && !answersCancellation(response.message))
    return judged('inconclusive', message('crossed', { request, atMs: since(call, response) }), details, undefined, observed);
  if (run.workStatus?.running === 0)
    return judged('pass', message('workStopped', { tool: run.workStatus.tool, request }), details, undefined, observed);
  if (run.signal === 'close-stream')
    return judged(
      'not-observable',
      run.witness === undefined
        ? message('streamClosed', { revision: run.session.revision, request })
        : message('streamClosedWitnessed', { revision: run.session.revision, request, witness: run.witness.id }),
      details,
      undefined,
      observed,
    );
  if (run.stall !== undefined)
    return judged(
      'inconclusive',
      message('quietAnyway', {
        request,
        watchedMs: run.watchedMs,
        tool: run.stall.tool,
        silentMs: run.stall.silentMs,
        check: run.stall.check,
      }),
      details,
      undefined,
      observed,
    );
  return judged('pass', message('silent', { request, watchedMs: run.watchedMs }), details, undefined, observed);
}

/** What the server sent about a cancelled request after the allowance, on any stream, and any answer to the cancellation. */
function violations(call: CancelledCall, answer: string | undefined, message: SilenceMessages): CheckMessage[] {
  const problems: CheckMessage[] = [];
  const inbox = call.inbox;
  const elsewhere = inbox.onOtherStreams.filter((received) => call.cancelledAt !== undefined && received.at >= call.cancelledAt);
  if (elsewhere.length > 0)
    problems.push(
      message('keptWriting', {
        request: call.id,
        stream: String(elsewhere[0]!.stream),
        messages: elsewhere.map((received) => describeMessage(call, received)).join(', '),
      }),
    );
  if (inbox.afterSilenceCount > 0) {
    const shown = inbox.afterSilence
      .map(
        (received) => `${describeMessage(call, received)}${answersCancellation(received.message) ? ' that answers the cancellation' : ''}`,
      )
      .join(', ');
    const counted = inbox.afterSilenceCount > inbox.afterSilence.length ? `${inbox.afterSilenceCount} messages, first ` : '';
    problems.push(message('sentAfterCancel', { messages: `${counted}${shown}` }));
  }
  if (answer !== undefined) problems.push(message('answeredCancellation', { answer }));
  return problems;
}
