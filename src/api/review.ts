import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildReview } from '../review/build-review.js';
import type { Review } from '../review/review-types.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { runFixture, runScript } from '../simulator/run-fixture.js';
import { readLintedManifest } from './manifest-input.js';
import type { OnProgress } from './on-progress.js';

/** What to review: `mcprely review`'s options as values. */
export interface ReviewOptions {
  /** The manifest file (with `text`: the name its findings are reported under). */
  readonly manifest: string;
  /** The manifest's text, when it is given instead of read from `manifest`. */
  readonly text?: string | Uint8Array;
  /** Review this operation only (its fixtures run, its section kept); every operation when absent. */
  readonly operation?: string;
  /**
   * Stops the review between two fixtures: it then rejects with the signal's reason. The review yields to the event
   * loop between fixtures when given one, so that what aborts it (a client's cancellation) is read in time.
   */
  readonly signal?: AbortSignal;
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
  const input = await readLintedManifest(options.manifest, options.config, options.text);
  if (!input.ok) return { ok: false, problem: input.report };
  const { operation, signal } = options;
  if (operation !== undefined && !input.manifest.operations.some((one) => one.own.name === operation))
    return {
      ok: false,
      problem: unknownOperation(
        options.manifest,
        operation,
        input.manifest.operations.map((one) => one.own.name),
      ),
    };
  const fixtures = generateFixtures(input.manifest).filter((fixture) => operation === undefined || fixture.operation === operation);
  const runs: FixtureRun[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    if (signal !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
    }
    options.onProgress?.(index, fixtures.length, fixture.id);
    // A review shows outcomes: each transcript is let go as its run ends, so memory stays small.
    runs.push({ ...(await runFixture(fixture)), transcript: [] });
  }
  const whole = buildReview(input.manifest, input.findings, runs, runScript, input.lintOnly);
  const review = operation === undefined ? whole : onlyOperation(whole, operation);
  return { ok: true, review, runs, exitCode: review.productionReady ? 0 : 1 };
}

/** Why an operation named for review is not in the manifest, naming the ones that are. */
export function unknownOperation(file: string, name: string, names: readonly string[]): string {
  return `${file}: no operation named ${JSON.stringify(name)}; the manifest has ${names.length === 0 ? 'none' : names.join(', ')}\n`;
}

/** A review of one operation: its section, the fixtures counted of it, the verdict its own refusals and the manifest's give. */
function onlyOperation(review: Review, name: string): Review {
  const operations = review.operations.filter((one) => one.name === name);
  const outcomes = operations.flatMap((one) => one.fixtures);
  const passed = outcomes.filter((one) => one.passed).length;
  return {
    ...review,
    operations,
    fixtures: { total: outcomes.length, passed, failed: outcomes.length - passed },
    productionReady: review.refusals.length === 0 && operations.every((one) => one.verdict.productionReady),
  };
}
