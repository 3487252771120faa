import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import { reviewView } from '../review/build-review.js';
import type { ReviewView } from '../review/review-types.js';
import { renderReviewMarkdownChunks } from '../review/render-review-markdown.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { renderRun } from '../simulator/render-transcript.js';
import { outcomeOf, type RunOutcome } from '../simulator/run-outcome.js';
import { type Bundle, type BundleSink, fixturePath, jsonFile, jsonFileChunks, setChunks, transcriptPath } from './bundle.js';
import { evidenceIndex, renderIndex } from './evidence-index.js';
import { renderEvidencePageChunks } from './evidence-page.js';
import { keyRecords } from './key-records.js';
import type { LiveEvidence } from './live-evidence.js';
import { reconnectPlans } from './reconnect-plans.js';
import { retryTable } from './retry-table.js';
import { sseAndIdle } from './sse-and-idle.js';

/**
 * Everything a reviewer or grader asks for, in one folder: the review, every fixture with its transcript,
 * the retry table, the key records, the SSE headers and idle policy, the reconnect plans, and an index
 * (markdown and JSON) that lists each required artifact with its status and files. With a live run (`live`),
 * its probe report, drift findings and live fixture transcripts too, and the verdict says what it rests on.
 * index.html shows all of it as one page that opens offline.
 */
export function buildEvidence(
  manifest: LoadedManifest,
  findings: readonly Finding[],
  runs: readonly FixtureRun[],
  manifestFromFixtures: string,
  live?: LiveEvidence,
  /** The address of a rule's page, relative to the bundle folder or absolute, for the page's links. */
  ruleLink: (ruleId: string) => string | undefined = () => undefined,
  /** Why no fixture can show what each lint-only rule reports (rule id → reason). */
  lintOnly: ReadonlyMap<string, string> = new Map(),
): Bundle {
  const bundle: Bundle = new Map();
  for (const run of runs) writeRunFiles(bundle, run, manifestFromFixtures);
  writeEvidenceFiles(bundle, manifest, findings, runs.map(outcomeOf), live, ruleLink, lintOnly);
  return bundle;
}

/** A fixture's two files: the fixture (naming the manifest from where it sits) and its run's transcript. */
export function writeRunFiles(bundle: BundleSink, run: FixtureRun, manifestFromFixtures: string): void {
  const { mcprelyFixture, ...rest } = run.fixture;
  bundle.set(fixturePath(run.fixture), jsonFile({ mcprelyFixture, ...rest, manifest: manifestFromFixtures }));
  bundle.set(transcriptPath(run.fixture), renderRun(run));
}

/**
 * The rest of the bundle into `bundle`, once every run's files are there (`writeRunFiles`, as each run ended): one
 * file after another, none kept here once written. The review is made from the runs' outcomes an operation at a
 * time, once for each file that shows it, so memory holds the outcomes and one operation's review, never all.
 */
export function writeEvidenceFiles(
  bundle: BundleSink,
  manifest: LoadedManifest,
  findings: readonly Finding[],
  outcomes: readonly RunOutcome[],
  live?: LiveEvidence,
  ruleLink: (ruleId: string) => string | undefined = () => undefined,
  lintOnly: ReadonlyMap<string, string> = new Map(),
): void {
  const review = reviewView(manifest, findings, outcomes, lintOnly);
  setChunks(bundle, 'review.md', renderReviewMarkdownChunks(review));
  setChunks(bundle, 'review.json', jsonFileChunks(reviewJson(review), 3));
  bundle.set('retry-table.md', retryTable(manifest));
  bundle.set('idempotency-key-records.json', jsonFile(keyRecords(manifest)));
  bundle.set('sse-headers-and-idle-policy.md', sseAndIdle(manifest));
  bundle.set('reconnect-plans.json', jsonFile(reconnectPlans(manifest)));
  for (const [path, text] of live?.files ?? []) bundle.set(path, text);
  // The index lists every file of the bundle: the next run into the same folder replaces exactly these, and no other.
  const files = [...bundle.keys(), 'index.html', 'index.json', 'index.md'].sort();
  const index = { ...evidenceIndex(manifest, review, outcomes, live), files };
  bundle.set('index.json', jsonFile(index));
  bundle.set('index.md', renderIndex(index));
  setChunks(
    bundle,
    'index.html',
    renderEvidencePageChunks(index, review, outcomes, (outcome) => bundle.get(transcriptPath(outcome.fixture))!, live, ruleLink),
  );
}

/** A review view as review.json has it: the review's members in its order, the operations written as they are made. */
function reviewJson(view: ReviewView): Omit<ReviewView, 'summaries'> {
  const { version, file, server, specVersion, replicas, operations, otherFindings, fixtures, refusals, productionReady } = view;
  return { version, file, server, specVersion, replicas, operations, otherFindings, fixtures, refusals, productionReady };
}
