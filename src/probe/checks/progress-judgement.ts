import type { ProgressObservation } from '../../live/probe-observations.js';
import { plural } from '../../text/plural.js';
import { progress } from '../check-declarations/progress.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { type CheckOutcome, judged, since } from '../probe-types.js';
import type { RecordedCall } from '../recorded-call.js';
import { describeMessage, toolFailed } from './observe.js';
import { hostGivesUp, type Stall, stallOf } from '../stall.js';

const message = messagesOf(progress);

/** What the progress check's plan recorded: the long tool called with a progress token of its own, and how it ended. */
export interface ProgressRun {
  readonly tool: string;
  readonly call: RecordedCall;
  /** How long the probe waited for the response (ms). */
  readonly limitMs: number;
  /** The wait was what was left of the probe's budget, not its limit for one run. */
  readonly limitedByBudget: boolean;
  /**
   * No response came within the limit: why then (the transport's reason, when there is one), how much progress had
   * come by then, and the signal the probe gave up with (none when none was due).
   */
  readonly unanswered?: { readonly why?: string; readonly progressCount: number; readonly signal?: 'close-stream' | 'notification' };
  /** The timeouts the probe plays as a host's, against which a run that went quiet is judged. */
  readonly timeouts: { readonly idleMs: number; readonly maxMs: number; readonly source: string };
}

/** The progress check's verdict, and why the long tool cannot be called again when it cannot (for the later checks). */
export interface ProgressVerdict {
  readonly outcome: CheckOutcome<ProgressObservation>;
  readonly broken?: string;
  /** The run was not answered and went quiet: what the later checks read instead of waiting again. */
  readonly stall?: Stall;
}

/**
 * Judges a run of the long tool: every progress value greater than the last, none after the response, one response.
 * A run that was not answered and went quiet for the idle timeout a host keeps fails (the host gives up on every call);
 * one that did not finish otherwise, failed as a tool, or sent no progress judged nothing (inconclusive). Pure.
 */
export function judgeProgress(run: ProgressRun): ProgressVerdict {
  const { call, tool } = run;
  const inbox = call.inbox;
  if (run.unanswered !== undefined) {
    const seen = `${plural(run.unanswered.progressCount, 'progress notification')} before that`;
    const signal = run.unanswered.signal;
    const cancelled =
      signal === undefined
        ? []
        : [`the probe cancelled the request with ${signal === 'close-stream' ? 'the closing of its stream' : 'notifications/cancelled'}`];
    const why = run.unanswered.why;
    if (why !== undefined)
      return {
        outcome: judged('fail', message('requestEnded', { why }), [seen, ...cancelled]),
        broken: `${tool} could not be called: ${why}`,
      };
    const problems = progressProblems(inbox);
    if (problems.length > 0) return { outcome: failedWith(problems, [seen, ...cancelled]) };
    const observed = { completed: false, progress: inbox.progressCount };
    const stall = stallOf({
      tool,
      check: progress.id,
      limitMs: run.limitMs,
      sentAt: call.sentAt,
      lastMessageAt: inbox.lastMessageAt,
      progress: inbox.progressCount,
      timeouts: run.timeouts,
    });
    if (stall !== undefined && hostGivesUp(stall)) {
      const data = { tool, limitMs: stall.limitMs, silentMs: stall.silentMs, idleMs: stall.idleMs, timeoutsFrom: stall.timeoutsFrom };
      return { outcome: judged('fail', message('stalled', data), [seen, ...cancelled], undefined, observed), stall };
    }
    const limitReason = run.limitedByBudget ? "what was left of the probe's budget" : 'two fifths of --max-time, at most 65 s';
    return {
      outcome: judged(
        'inconclusive',
        message('unfinished', { tool, limitMs: run.limitMs, limitReason }),
        [seen, ...cancelled],
        undefined,
        observed,
      ),
      ...(stall === undefined ? {} : { stall }),
    };
  }
  const response = inbox.response;
  if (response === undefined) throw new Error('a progress run is answered or unanswered');
  const failed = toolFailed(response.message);
  if (failed !== undefined)
    return { outcome: judged('inconclusive', message('toolFailed', { tool, failure: failed })), broken: `${tool} answered with ${failed}` };
  const durationMs = since(call, response);
  const problems = progressProblems(inbox);
  const values =
    inbox.progressValues.length < inbox.progressCount ? `${JSON.stringify(inbox.progressValues)}…` : JSON.stringify(inbox.progressValues);
  const details = [`${plural(inbox.progressCount, 'progress notification')}: ${values}; ${describeMessage(call, response)}`];
  if (inbox.coalesced > 0)
    details.push(
      `${plural(inbox.coalesced, 'queued progress notification')} coalesced to keep the probe's queue bounded; every value was checked as it arrived`,
    );
  const observed = { completed: true, progress: inbox.progressCount, durationMs };
  if (problems.length > 0) return { outcome: failedWith(problems, details, observed) };
  if (inbox.progressCount === 0)
    return { outcome: judged('inconclusive', message('noProgress', { tool, durationMs }), details, undefined, observed) };
  return { outcome: judged('pass', message('increasing', { count: inbox.progressCount }), details, undefined, observed) };
}

/** A failure on the first problem; the others, then `details`, below it. */
function failedWith(
  problems: readonly CheckMessage[],
  details: readonly string[],
  observed?: ProgressObservation,
): CheckOutcome<ProgressObservation> {
  return judged('fail', problems[0]!, [...problems.slice(1).map((problem) => problem.text), ...details], undefined, observed);
}

function progressProblems(inbox: RecordedCall['inbox']): CheckMessage[] {
  const problems = inbox.notIncreasing.map(({ value, previous }) => message('notIncreasing', { value, previous }));
  if (inbox.progressAfterResponse > 0) problems.push(message('progressAfterResponse', { count: inbox.progressAfterResponse }));
  if (inbox.repeatedResponses > 0) problems.push(message('repeatedResponses', { count: inbox.repeatedResponses }));
  return problems;
}
