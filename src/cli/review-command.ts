import { type ReviewOutcome, review as reviewManifest } from '../api/review.js';
import { renderReviewMarkdown } from '../review/render-review-markdown.js';
import { DECLARED_BASIS, renderReviewHtml } from '../review/render-review-html.js';
import type { Review } from '../review/review-types.js';
import { verdictSentence } from '../evidence/live-evidence.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { renderRun } from '../simulator/render-transcript.js';
import { ruleDocLinks } from '../workspace/rule-docs-base.js';
import { terminalProgress } from './terminal-progress.js';
import { writeOutputFile } from '../workspace/output-files.js';

export interface ReviewCommandOptions {
  readonly format: 'markdown' | 'json' | 'html';
  readonly output?: string;
  readonly config?: string | false;
}

/** `mcprely review`: exit 0 when the verdict is production-ready, 1 when not, 2 when the manifest or configuration is unusable. */
export async function runReview(path: string, options: ReviewCommandOptions): Promise<number> {
  const progress = terminalProgress();
  let outcome: ReviewOutcome;
  try {
    outcome = await reviewManifest({
      manifest: path,
      ...(options.config === undefined ? {} : { config: options.config }),
      onProgress: progress.onProgress,
    });
  } finally {
    progress.done();
  }
  if (!outcome.ok) {
    process.stderr.write(outcome.problem);
    return 2;
  }
  const { review, runs } = outcome;
  const text =
    options.format === 'json'
      ? `${JSON.stringify(review, null, 2)}\n`
      : options.format === 'html'
        ? reviewPage(review, runs, options.output)
        : renderReviewMarkdown(review);
  if (options.output === undefined) process.stdout.write(text);
  else writeOutputFile(options.output, text, 'the review');
  return outcome.exitCode;
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
