import type { CheckStatus } from '../live/outcome.js';
import type { Stall } from './stall.js';

/** The longest a check may wait on a tool, told as it starts ("waiting up to 65 s for slow_op"). */
export interface CheckLimit {
  readonly tool: string;
  readonly ms: number;
  /** What it waits for, in words ("its response"). */
  readonly waitsFor: string;
}

/**
 * What the probe tells as it runs, as data: a check started (with its limit on a tool), the long tool stalled (the
 * moment the limit passed), a check ended (with its outcome). The probe prints nothing; the CLI writes these as lines.
 */
export type ProbeEvent =
  | {
      readonly kind: 'check-started';
      /** The check's position among the checks the runner plays (from 0), and how many there are. */
      readonly index: number;
      readonly total: number;
      readonly check: string;
      readonly title: string;
      readonly limit?: CheckLimit;
    }
  | { readonly kind: 'stalled'; readonly check: string; readonly stall: Stall }
  | {
      readonly kind: 'check-ended';
      readonly index: number;
      readonly total: number;
      readonly check: string;
      readonly status: CheckStatus;
      readonly summary: string;
      readonly durationMs: number;
    };

/** Told each event as it happens. */
export type OnProbeEvent = (event: ProbeEvent) => void;
