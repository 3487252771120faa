import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildReview } from '../review/build-review.js';
import type { Review } from '../review/review-types.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { runFixture, runScript } from '../simulator/run-fixture.js';
import { readLintedManifest } from './manifest-input.js';
import type { OnProgress } from './on-progress.js';

/** What to review: `mcprely review`'s options as values. */
export interface ReviewOptions {
  /** The manifest file. */
  readonly manifest: string;
  /** A configuration file for the lint findings in the review, false for none, undefined to look in the working directory. */
  readonly config?: string | false;
  /** Told before each fixture runs on the reference implementation. */
  readonly onProgress?: OnProgress;
}

/** The review, or why the manifest or the configuration cannot be used. */
export type ReviewOutcome =
  | {
      readonly ok: true;
      /** Per operation: the wire, the race tables, the checklist, the fixtures and the verdict. */
      readonly review: Review;
      /** Each fixture's run on the reference implementation (outcomes only: the transcripts are let go as each ends). */
      readonly runs: readonly FixtureRun[];
      /** 0 when the verdict is production-ready, else 1. */
      readonly exitCode: 0 | 1;
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Reviews a manifest: lints it, runs every failure fixture on the reference implementation, and builds the
 * reliability review whose verdict rests on both. Prints nothing.
 */
export async function review(options: ReviewOptions): Promise<ReviewOutcome> {
  const input = await readLintedManifest(options.manifest, options.config);
  if (!input.ok) return { ok: false, problem: input.report };
  const fixtures = generateFixtures(input.manifest);
  const runs: FixtureRun[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    options.onProgress?.(index, fixtures.length, fixture.id);
    // A review shows outcomes: each transcript is let go as its run ends, so memory stays small.
    runs.push({ ...(await runFixture(fixture)), transcript: [] });
  }
  const review = buildReview(input.manifest, input.findings, runs, runScript, input.lintOnly);
  return { ok: true, review, runs, exitCode: review.productionReady ? 0 : 1 };
}
