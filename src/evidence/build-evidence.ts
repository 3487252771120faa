import type { RuleVerifications } from '../findings/rule-verification.js';
import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import { reviewView } from '../review/build-review.js';
import { allOutcomes, evidenceInMemory, type ReviewEvidence } from '../review/operation-evidence.js';
import type { ReviewView } from '../review/review-types.js';
import { renderReviewMarkdownChunks } from '../review/render-review-markdown.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { renderRun } from '../simulator/render-transcript.js';
import { runScript } from '../simulator/run-fixture.js';
import { outcomeOf } from '../simulator/run-outcome.js';
import { type Bundle, type BundleSink, fixturePath, jsonFile, jsonFileChunks, setChunks, transcriptPath } from './bundle.js';
import { type BundleFiles, type EvidenceIndex, evidenceIndex, renderIndexChunks } from './evidence-index.js';
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
  lintOnly: RuleVerifications = new Map(),
): Bundle {
  const bundle: Bundle = new Map();
  for (const run of runs) writeRunFiles(bundle, run, manifestFromFixtures);
  writeEvidenceFiles(bundle, manifest, evidenceInMemory(manifest, findings, runs.map(outcomeOf)), live, ruleLink, lintOnly);
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
 * file after another, none kept here once written; returns the index (its verdict and fixture counts). The review
 * is made from each operation's record (its findings and outcomes) an operation at a time, once for each file that
 * shows it: with records read back from a file, memory holds one operation's record and review.
 */
export function writeEvidenceFiles(
  bundle: BundleSink,
  manifest: LoadedManifest,
  evidence: ReviewEvidence,
  live?: LiveEvidence,
  ruleLink: (ruleId: string) => string | undefined = () => undefined,
  lintOnly: RuleVerifications = new Map(),
): EvidenceIndex {
  const review = reviewView(manifest, evidence, runScript, lintOnly);
  setChunks(bundle, 'review.md', renderReviewMarkdownChunks(review));
  setChunks(bundle, 'review.json', jsonFileChunks(reviewJson(review), 3));
  bundle.set('retry-table.md', retryTable(manifest));
  bundle.set('idempotency-key-records.json', jsonFile(keyRecords(manifest)));
  bundle.set('sse-headers-and-idle-policy.md', sseAndIdle(manifest));
  bundle.set('reconnect-plans.json', jsonFile(reconnectPlans(manifest)));
  for (const [path, text] of live?.files ?? []) bundle.set(path, text);
  // The index lists every file of the bundle: the next run into the same folder replaces exactly these, and no other.
  const files = bundleFiles(bundle);
  const index = { ...evidenceIndex(manifest, review, allOutcomes(evidence.records), live), files };
  setChunks(bundle, 'index.json', jsonFileChunks(index, 2));
  setChunks(bundle, 'index.md', renderIndexChunks(index));
  setChunks(
    bundle,
    'index.html',
    renderEvidencePageChunks(
      index,
      review,
      (fixture, operation) => bundle.get(transcriptPath({ id: fixture.id, operation })),
      live,
      ruleLink,
    ),
  );
  return index;
}

const INDEX_FILES = ['index.html', 'index.json', 'index.md'];

/**
 * Every file of the bundle with its index, sorted: the list is made again each time it is read (a bundle of
 * 10 000 operations has 80 000 files, not held for the page). It reads the same before and after the index is written.
 */
function bundleFiles(bundle: BundleSink): BundleFiles {
  const others = () => [...bundle.keys()].filter((file) => !INDEX_FILES.includes(file));
  return { length: others().length + INDEX_FILES.length, [Symbol.iterator]: () => [...others(), ...INDEX_FILES].sort()[Symbol.iterator]() };
}

/** A review view as review.json has it: the review's members in its order, the operations written as they are made. */
function reviewJson(view: ReviewView): Omit<ReviewView, 'summaries'> {
  const { version, file, server, specVersion, replicas, operations, otherFindings, fixtures, refusals, productionReady } = view;
  return { version, file, server, specVersion, replicas, operations, otherFindings, fixtures, refusals, productionReady };
}
