import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildReview } from '../review/build-review.js';
import { renderReviewMarkdown } from '../review/render-review-markdown.js';
import { readLintedManifest } from './manifest-input.js';
import { runFixturesWithProgress } from './run-fixtures-with-progress.js';
import { writeOutputFile } from './output-files.js';

export interface ReviewOptions {
  readonly format: 'markdown' | 'json';
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
  const review = buildReview(input.manifest, input.findings, await runFixturesWithProgress(generateFixtures(input.manifest), true));
  const text = options.format === 'json' ? `${JSON.stringify(review, null, 2)}\n` : renderReviewMarkdown(review);
  if (options.output === undefined) process.stdout.write(text);
  else writeOutputFile(options.output, text, 'the review');
  return review.productionReady ? 0 : 1;
}
