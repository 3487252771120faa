import type { ProbeRevision } from './connection.js';
import type { ProbeSession } from './session.js';
import type { WireEntry, WireLog } from './wire-log.js';

/** What the probe calls, and the limits it keeps to. */
export interface ProbePlan {
  /** The long-running tool the request checks use, with the arguments to call it with. */
  readonly longTool?: { readonly name: string; readonly arguments: Record<string, unknown> };
  /** Present only with --allow-mutations and a manifest that names the key argument. */
  readonly mutation?: {
    readonly name: string;
    readonly arguments: Record<string, unknown>;
    readonly keyArgument: string;
    readonly fingerprint: readonly string[];
  };
  readonly timeouts: { readonly idleMs: number; readonly maxMs: number; readonly source: string };
  /** How long the probe watches for messages that must not come (after a cancellation or completion). */
  readonly graceMs: number;
  /** The probe's own maximum wait for one answer. */
  readonly requestTimeoutMs: number;
}

export interface ProbeContext {
  readonly session: ProbeSession;
  readonly log: WireLog;
  readonly plan: ProbePlan;
  readonly revision: ProbeRevision;
  readonly clock: () => number;
  /** What earlier checks measured: how long the long-running tool takes when nobody cancels it. */
  readonly measured: { longToolMs?: number };
}

/**
 * How long to watch for messages that must not come after a cancellation at `cancelledAfterMs` into the
 * call: the grace period, or until the work would have finished uncancelled (plus the grace), whichever is
 * longer, but never past the probe's maximum wait for one request.
 */
export function watchAfterCancel(context: ProbeContext, cancelledAfterMs: number): number {
  const rest = context.measured.longToolMs === undefined ? 0 : context.measured.longToolMs - cancelledAfterMs;
  return Math.min(Math.max(context.plan.graceMs, rest + context.plan.graceMs), context.plan.requestTimeoutMs);
}

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckOutcome {
  readonly status: CheckStatus;
  readonly summary: string;
  readonly details: readonly string[];
}

export interface ProbeCheck {
  readonly id: string;
  readonly title: string;
  /** The spec line the check rests on. */
  readonly basis: string;
  run(context: ProbeContext): Promise<CheckOutcome>;
}

export interface CheckResult extends CheckOutcome {
  readonly id: string;
  readonly title: string;
  readonly basis: string;
  readonly transcript: readonly WireEntry[];
  readonly durationMs: number;
}

export interface ProbeReport {
  readonly version: 1;
  /** What the probe noticed about the server as a whole: garbage on the wire, a flood, an exit. */
  readonly observations: readonly string[];
  readonly target: string;
  readonly transport: 'stdio' | 'streamable-http';
  readonly revision: ProbeRevision | 'unknown';
  readonly startedOk: boolean;
  readonly problem?: string;
  readonly checks: readonly CheckResult[];
  readonly stderr?: string;
}

export function outcome(status: CheckStatus, summary: string, details: string[] = []): CheckOutcome {
  return { status, summary, details };
}
