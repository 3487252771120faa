import type { CheckStatus } from '../live/outcome.js';
import type { ObservationsByCheck, ProbeObservation, ReportedObservation } from '../live/probe-observations.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Judgement } from '../judges/judgement.js';

export { type CheckStatus, STATUS_LABELS, STATUS_WORDS } from '../live/outcome.js';
import type { Call, SentNotification } from './connection.js';
import type { ProbePlan } from './probe-plan.js';
import type { Received } from './received.js';
import type { ToolSummary } from './tool-summary.js';
import type { ProbeCheckDeclarationOf, ProbeCheckId } from './probe-check-catalog.js';
import type { CheckMessage } from './check-message.js';
import type { ProbeSession } from './session.js';
import type { WireEntry, WireLog } from './wire-log.js';
import type { CheckLimit, ProbeEvent } from './probe-events.js';
import type { Stall } from './stall.js';

export interface ProbeContext {
  readonly session: ProbeSession;
  readonly log: WireLog;
  readonly plan: ProbePlan;
  readonly revision: SpecVersion;
  readonly clock: () => number;
  /** The check now running: every request it sends is its own. */
  readonly owner: string;
  /** What earlier checks learned: how long the long-running tool takes, or why it cannot be called again. */
  readonly measured: Measured;
  /** How much of the probe's budget (--max-time) is left, in ms. */
  readonly budgetLeft: () => number;
  /** Tells what the check saw the moment it saw it (the long tool stalled), for whoever follows the run. */
  readonly tell: (event: Extract<ProbeEvent, { kind: 'stalled' }>) => void;
  /**
   * Streamable HTTP only: a fresh connection to the same endpoint, with the revision's own start (a new session
   * and its initialize, or a fresh client's server/discover); the caller closes it. Over stdio there is none: a
   * new process is a new server.
   */
  readonly reconnect?: () => Promise<{ readonly session: ProbeSession; readonly close: () => Promise<void> } | { readonly failed: string }>;
}

/** What earlier checks learned about the long-running tool, for the timing of later ones. */
export interface Measured {
  /** How long one uncancelled run takes (ms). */
  longToolMs?: number;
  /** The longest gap between its messages (ms): how often it shows it is alive. */
  longToolGapMs?: number;
  /** Why it cannot be called again. */
  longToolBroken?: string;
  /** The cancellation check watched a cancelled run until it would have ended uncancelled, and saw nothing. */
  silentToNaturalEnd?: boolean;
  /**
   * The long tool did not answer within the probe's limit and went quiet: a later check does not wait a full limit
   * again to learn the same thing (src/probe/stall.ts).
   */
  stall?: Stall;
}

/**
 * How long to watch for messages that must not come after a cancellation at `cancelledAfterMs` into the
 * call: the grace period, or until the work would have finished uncancelled (plus the grace), whichever is
 * longer, but never past the probe's maximum wait for one request.
 */
export function watchAfterCancel(context: ProbeContext, cancelledAfterMs: number): number {
  const measured = context.measured;
  // Unknown length (it outlasted the probe's limit): long enough for a server that ignores the cancellation to show it.
  const rest =
    measured.longToolMs === undefined ? 3 * (measured.longToolGapMs ?? 0) - context.plan.graceMs : measured.longToolMs - cancelledAfterMs;
  const wanted = Math.max(context.plan.graceMs, rest + context.plan.graceMs);
  return Math.max(0, Math.min(wanted, context.plan.longRunMs, context.budgetLeft() - RESERVE_MS));
}

/** What a check keeps of the budget for its own last steps (asking the server whether it still answers). */
export const RESERVE_MS = 2000;

/** The longest one run of the long tool may take: the probe's limit for one run, within what is left of its budget. */
export function runLimitMs(context: ProbeContext): number {
  return Math.max(0, Math.round(Math.min(context.plan.longRunMs, context.budgetLeft() - RESERVE_MS)));
}

/** What a check leaves to be watched after it ends: late messages are still its own. */
export interface Watch {
  /** Cancelled requests: anything after their silence began. */
  readonly calls: readonly Call[];
  /** Notifications that must never be answered. */
  readonly notifications: readonly SentNotification[];
}

/** What a check concluded; `Observation`, the facts it exercised (its type in `ObservationsByCheck`). */
export interface CheckOutcome<Observation extends ProbeObservation = ProbeObservation> {
  readonly status: CheckStatus;
  readonly summary: string;
  /** The summary's message id in the check's declaration and its arguments (absent where the check writes its own words). */
  readonly messageId?: string;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly details: readonly string[];
  readonly watch?: Watch;
  readonly observed?: Observation;
}

/** The facts the check `Id` observes, or none. */
export type ObservationOf<Id extends ProbeCheckId> = Id extends keyof ObservationsByCheck ? ObservationsByCheck[Id] : never;

/** A check the runner plays: its declaration (src/probe/check-declarations), and the run. */
export type ProbeCheck<Id extends ProbeCheckId = ProbeCheckId> = ProbeCheckDeclarationOf<Id> & {
  run(context: ProbeContext): Promise<CheckOutcome<ObservationOf<Id>>>;
  /** The longest the run may wait on a tool, as it starts (told to whoever follows the run); none when it calls none. */
  limit?(context: ProbeContext): CheckLimit | undefined;
};

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly basis: string;
  readonly status: CheckStatus;
  readonly summary: string;
  readonly details: readonly string[];
  /** What to change in the server (failed checks). */
  readonly fix?: string;
  readonly observed?: ReportedObservation;
  readonly transcript: readonly WireEntry[];
  readonly durationMs: number;
}

export interface ProbeReport {
  readonly version: 3;
  readonly target: string;
  readonly transport: 'stdio' | 'streamable-http';
  /** The revision the probe spoke with the server, or unknown when it could not start. */
  readonly revision: SpecVersion | 'unknown';
  /** The revision asked for with --spec-version or the manifest, when one was. */
  readonly requestedRevision?: SpecVersion;
  readonly startedOk: boolean;
  /** Why the probe could not start (exit 2). */
  readonly problem?: string;
  /** What the probe calls, and why it may. */
  readonly plan?: {
    readonly tool: string | null;
    readonly why: string;
    readonly mutation: string | null;
    /** The tool the tasks check runs as a task (absent in reports written before it). */
    readonly taskTool?: string | null;
  };
  /** The tools the server listed (what drift compares with a manifest). */
  readonly tools?: readonly ToolSummary[];
  /** What the probe noticed about the server as a whole. */
  readonly observations: readonly string[];
  readonly checks: readonly CheckResult[];
  /**
   * The probe's own session judged by the server's judges of `mcprely proxy` and `mcprely audit` (src/judges): one
   * verdict per rule, each failure also told at the check that drove it. Absent when the probe could not start.
   */
  readonly session?: {
    readonly messages: number;
    /** What may cross a cancellation, as the judges took it (ms): `mcprely audit --grace` of the trace judges alike. */
    readonly graceMs: number;
    /** Each judgement with its first failed and passed cases (`casesLeftOut`: how many more it had). */
    readonly judgements: readonly (Judgement & { readonly casesLeftOut?: number })[];
  };
  /** When nothing failed and no request in flight was judged, why (exit 3: inconclusive, not a pass). */
  readonly inconclusive?: string;
  /** The long tool did not answer within the probe's limit and went quiet (the summary leads with it). */
  readonly stall?: Stall;
  readonly stderr?: string;
}

export function outcome<Observation extends ProbeObservation = never>(
  status: CheckStatus,
  summary: string,
  details: readonly string[] = [],
  watch?: Watch,
  observed?: Observation,
): CheckOutcome<Observation> {
  return { status, summary, details, ...(watch === undefined ? {} : { watch }), ...(observed === undefined ? {} : { observed }) };
}

/** An outcome whose summary is a message of the check's declaration. */
export function judged<Observation extends ProbeObservation = never>(
  status: CheckStatus,
  message: CheckMessage,
  details: readonly string[] = [],
  watch?: Watch,
  observed?: Observation,
): CheckOutcome<Observation> {
  return { ...outcome(status, message.text, details, watch, observed), messageId: message.messageId, data: message.data };
}

/** A time of a message, counted from the request it answers (never from the probe's start). */
export function since(call: Pick<Call, 'sentAt'>, received: Pick<Received, 'at'>): number {
  return Math.max(0, Math.round(received.at - call.sentAt));
}
