import { ignoredCancellations } from '../check-declarations/ignored-cancellations.js';
import { type CheckMessage, messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';

const message = messagesOf(ignoredCancellations);

/** What the check recorded: each cancellation it sent (in words) and any answer to it, what else the server sent meanwhile. */
export interface IgnoredCancellationsRun {
  readonly cancellations: readonly { readonly cancellation: string; readonly answer?: string }[];
  /** Messages about no request of the probe that the server sent during the check, in words. */
  readonly strays: readonly string[];
  /** Why the server no longer answered tools/list afterwards, when it did not. */
  readonly unhealthy?: string;
}

/** Judges the cancellations the server must ignore: no reply to any, nothing stray, and still serving. Pure. */
export function judgeIgnoredCancellations(run: IgnoredCancellationsRun): CheckOutcome<never> {
  const problems: CheckMessage[] = [];
  const details: string[] = [];
  for (const { cancellation, answer } of run.cancellations) {
    if (answer === undefined) details.push(`${cancellation}: ignored`);
    else problems.push(message('answered', { cancellation, answer }));
  }
  for (const stray of run.strays) problems.push(message('stray', { stray }));
  if (run.unhealthy !== undefined) problems.push(message('unhealthy', { why: run.unhealthy }));
  return problems.length === 0
    ? judged('pass', message('ignored', {}), details)
    : judged('fail', problems[0]!, [...problems.slice(1).map((problem) => problem.text), ...details]);
}
