import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildReview } from '../review/build-review.js';
import { renderReviewMarkdown } from '../review/render-review-markdown.js';
import { DECLARED_BASIS, renderReviewHtml } from '../review/render-review-html.js';
import type { Review } from '../review/review-types.js';
import { verdictSentence } from '../evidence/live-evidence.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { renderRun } from '../simulator/render-transcript.js';
import { ruleDocLinks } from '../workspace/rule-docs-base.js';
import { readLintedManifest } from './manifest-input.js';
import { runFixturesWithProgress } from './run-fixtures-with-progress.js';
import { writeOutputFile } from '../workspace/output-files.js';

export interface ReviewOptions {
  readonly format: 'markdown' | 'json' | 'html';
  readonly output?: string;
  readonly config?: string | false;
}

/** `mcprely review`: exit 0 when the verdict is production-ready, 1 when not, 2 when the manifest or configuration is unusable. */
export async function runReview(path: string, options: ReviewOptions): Promise<number> {
  const input = await readLintedManifest(path, options.config);
  if (!input.ok) {
    process.stderr.write(input.report);
    return 2;
  }
  // The verdict rests on the evidence: the lint findings and every fixture run on the reference implementation.
  const runs = await runFixturesWithProgress(generateFixtures(input.manifest), true);
  const review = buildReview(input.manifest, input.findings, runs, input.lintOnly);
  const text =
    options.format === 'json'
      ? `${JSON.stringify(review, null, 2)}\n`
      : options.format === 'html'
        ? reviewPage(review, runs, options.output)
        : renderReviewMarkdown(review);
  if (options.output === undefined) process.stdout.write(text);
  else writeOutputFile(options.output, text, 'the review');
  return review.productionReady ? 0 : 1;
}

/** The review as one offline page: the verdict as declared, each fixture with its transcript, rule pages linked from where the page is written. */
function reviewPage(review: Review, runs: readonly FixtureRun[], output: string | undefined): string {
  const byId = new Map(runs.map((run) => [run.fixture.id, run]));
  const verdict = verdictSentence(review.productionReady, { on: 'manifest' });
  return renderReviewHtml(review, {
    title: `Reliability review: ${review.server}`,
    verdict: { text: verdict.verdict, productionReady: verdict.productionReady },
    basis: [DECLARED_BASIS],
    ruleLink: ruleDocLinks(output ?? 'review.html', process.cwd()),
    transcript: (fixture) => {
      const run = byId.get(fixture.id);
      return run === undefined ? undefined : renderRun(run);
    },
    footer: '<p>Written by <code>mcprely review --format html</code>. It fetches nothing: it opens offline.</p>',
  });
}
