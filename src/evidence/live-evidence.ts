import type { Finding } from '../findings/finding.js';
import type { CheckStatus } from '../live/outcome.js';
import { asDeclared, claimName, type WireClaim } from '../live/wire-claims.js';
import { plural } from '../text/plural.js';

/** How many of something came out each way: the four outcomes of a live check or fixture. */
export type OutcomeCounts = Readonly<Record<CheckStatus, number>>;

export function countOutcomes(items: readonly { readonly status: CheckStatus }[]): OutcomeCounts {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, inconclusive: 0, 'not-observable': 0 };
  for (const item of items) counts[item.status]++;
  return counts;
}

/** The counts in words: "3 passed, 0 failed, 2 inconclusive, 1 not observable". */
export function countsInWords(counts: OutcomeCounts): string {
  return `${counts.pass} passed, ${counts.fail} failed, ${counts.inconclusive} inconclusive, ${counts['not-observable']} not observable`;
}

/** What a live run (probe, drift, live fixtures) brings to a bundle; the caller ran it and rendered its files. */
export interface LiveEvidence {
  readonly target: string;
  readonly transport: string;
  readonly revision: string;
  /** The day of the run (YYYY-MM-DD). */
  readonly date: string;
  readonly checks: readonly { readonly id: string; readonly status: CheckStatus; readonly summary: string }[];
  /** Each claim of the manifest the probe can see, and how it fared. */
  readonly claims: readonly WireClaim[];
  /** A claim was seen on a request in flight (`exercised` in src/live/wire-claims.ts): the run compared real work. */
  readonly exercised: boolean;
  readonly drift: readonly Finding[];
  readonly fixtures: OutcomeCounts;
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
      readonly checks: OutcomeCounts;
      readonly drift: number;
      readonly liveFixtures: OutcomeCounts;
      /** The claims seen on the wire. */
      readonly seen: readonly string[];
      /** The claims that stand as declared (inconclusive or not observable), each with why. */
      readonly asDeclared: readonly string[];
      /** Nothing failed, no drift, and a claim was seen on a request in flight: the claims seen are verified. */
      readonly verified: boolean;
    };

export function basisOf(live: LiveEvidence | undefined): VerdictBasis {
  if (live === undefined) return { on: 'manifest' };
  const checks = countOutcomes(live.checks);
  return {
    on: 'wire',
    target: live.target,
    transport: live.transport,
    revision: live.revision,
    date: live.date,
    checks,
    drift: live.drift.length,
    liveFixtures: live.fixtures,
    seen: live.claims.filter((claim) => claim.status === 'seen').map(claimName),
    asDeclared: asDeclared(live.claims),
    verified: checks.fail === 0 && live.exercised && live.drift.length === 0 && live.fixtures.fail === 0,
  };
}

/**
 * The verdict in words, naming its basis: "as declared" without a live run; "verified on the wire" only for
 * the claims a check saw, and only when every claim the probe can see was seen — otherwise the verdict names
 * how many stand as declared (each listed in the bundle with why); refused, with the reason, when the server
 * contradicts the manifest or a live check fails.
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
  if (basis.checks.fail > 0) refusals.push(`${plural(basis.checks.fail, 'live check')} failed`);
  if (basis.liveFixtures.fail > 0) refusals.push(`${plural(basis.liveFixtures.fail, 'live fixture')} failed`);
  if (refusals.length === 0 && !basis.verified) refusals.push('no claim of the manifest was seen on a request in flight');
  if (refusals.length > 0)
    return { productionReady: false, verdict: `not production-ready: ${refusals.join('; ')} (checked on the wire: ${run})` };
  if (basis.asDeclared.length === 0)
    return {
      productionReady: true,
      verdict: `production-ready, verified on the wire (${run}): ${plural(basis.seen.length, 'claim')} seen`,
    };
  return {
    productionReady: true,
    verdict:
      `production-ready: ${plural(basis.seen.length, 'claim')} seen on the wire (${run}); ` +
      `${plural(basis.asDeclared.length, 'claim')} as declared, not seen on the wire: ${basis.asDeclared.join(', ')}`,
  };
}
