import type { Finding } from '../findings/finding.js';
import { plural } from '../text/plural.js';

/** What a live run (probe, drift, live fixtures) brings to a bundle; the caller ran it and rendered its files. */
export interface LiveEvidence {
  readonly target: string;
  readonly transport: string;
  readonly revision: string;
  /** The day of the run (YYYY-MM-DD). */
  readonly date: string;
  readonly checks: readonly { readonly id: string; readonly status: 'pass' | 'fail' | 'skip'; readonly summary: string }[];
  /** At least one check put a request in flight and judged it (the probe's nothingRan is absent). */
  readonly checkedInFlight: boolean;
  readonly drift: readonly Finding[];
  readonly fixtures: { readonly passed: number; readonly failed: number; readonly notRun: number };
  /** The files to add to the bundle, under live/. */
  readonly files: ReadonlyMap<string, string>;
}

/** What the verdict rests on, in the index. */
export type VerdictBasis =
  | { readonly on: 'manifest' }
  | {
      readonly on: 'wire';
      readonly target: string;
      readonly transport: string;
      readonly revision: string;
      readonly date: string;
      readonly checks: { readonly passed: number; readonly failed: number; readonly skipped: number };
      readonly drift: number;
      readonly liveFixtures: { readonly passed: number; readonly failed: number; readonly notRun: number };
      /** Every live check that ran passed, one at least judged a request in flight, no drift, no live fixture failed. */
      readonly verified: boolean;
    };

export function basisOf(live: LiveEvidence | undefined): VerdictBasis {
  if (live === undefined) return { on: 'manifest' };
  const count = (status: 'pass' | 'fail' | 'skip') => live.checks.filter((check) => check.status === status).length;
  const checks = { passed: count('pass'), failed: count('fail'), skipped: count('skip') };
  return {
    on: 'wire',
    target: live.target,
    transport: live.transport,
    revision: live.revision,
    date: live.date,
    checks,
    drift: live.drift.length,
    liveFixtures: live.fixtures,
    verified: checks.failed === 0 && live.checkedInFlight && live.drift.length === 0 && live.fixtures.failed === 0,
  };
}

/**
 * The verdict in words, naming its basis: "as declared" without a live run; "verified on the wire" only when
 * the live run passed; refused, with the reason, when the server contradicts the manifest or a live check fails.
 */
export function verdictSentence(reviewReady: boolean, basis: VerdictBasis): { productionReady: boolean; verdict: string } {
  if (basis.on === 'manifest')
    return reviewReady
      ? { productionReady: true, verdict: 'production-ready as declared (not checked against a server)' }
      : { productionReady: false, verdict: 'not production-ready (as declared; not checked against a server)' };
  const run = `${basis.revision}, ${basis.transport}, ${basis.date}`;
  const refusals: string[] = [];
  if (!reviewReady) refusals.push('the review refuses it');
  if (basis.drift > 0) refusals.push(`the server contradicts the manifest (${plural(basis.drift, 'drift finding')})`);
  if (basis.checks.failed > 0) refusals.push(`${plural(basis.checks.failed, 'live check')} failed`);
  if (basis.liveFixtures.failed > 0) refusals.push(`${plural(basis.liveFixtures.failed, 'live fixture')} failed`);
  if (refusals.length === 0 && !basis.verified) refusals.push('no live check judged a request in flight');
  if (refusals.length > 0)
    return { productionReady: false, verdict: `not production-ready: ${refusals.join('; ')} (checked on the wire: ${run})` };
  return { productionReady: true, verdict: `production-ready, verified on the wire (${run})` };
}
