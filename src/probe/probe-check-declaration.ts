import type { SessionJudgeId } from '../judges/session-rules.js';
import type { CheckStatus } from '../live/outcome.js';

/**
 * A probe check as data: what it is, what it rests on, what it can conclude and in which words. Its page, the SARIF
 * rule of a probe report and the cross-references to the session judges are read from it; its code (the plan it plays
 * and the judgement of what was recorded) lives in src/probe/checks.
 */
export interface ProbeCheckDeclaration {
  readonly id: string;
  /** The one-line claim the check tests, as a report heads it. */
  readonly title: string;
  /** What the check does, for its page. */
  readonly description: string;
  /** The spec line (or lesson) the check rests on. */
  readonly basis: string;
  /** What to change in the server when the check fails. */
  readonly fix: string;
  /**
   * The outcomes the check itself can give. Any check the runner could not run (the budget was spent, the connection
   * ended, the tools were not listed) is inconclusive besides, and the connection's end fails the check that met it.
   */
  readonly outcomes: readonly CheckStatus[];
  /**
   * Its summaries by message id: ESLint-style templates whose `{{name}}` is replaced by the argument of that name. A
   * summary the check writes in its own words (not yet given an id) has none here.
   */
  readonly messages: Readonly<Record<string, string>>;
  /**
   * The session judges whose rule the check asserts about the requests it sends: a judge's failure on one of them fails
   * the check (src/probe/session-judgements.ts), so a check never passes what the judge of its rule failed.
   */
  readonly asserts: readonly SessionJudgeId[];
  /**
   * It puts a tool call in flight (progress, cancellation, timeouts, tasks, replay): a run in which none of these passed
   * or failed exercised nothing the probe exists for (exit 3), and a claim seen only by another check does not count.
   */
  readonly putsCallInFlight: boolean;
}

/** Declares a probe check, keeping its literal id and message ids for the types derived from it. */
export function declareProbeCheck<const Declaration extends ProbeCheckDeclaration>(declaration: Declaration): Declaration {
  return declaration;
}
