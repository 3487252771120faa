import type { RuleVerifications } from '../findings/rule-verification.js';
import { join, relative, resolve } from 'node:path';
import { operationFixtures } from '../fixtures/generate-fixtures.js';
import { writeEvidenceFiles, writeRunFiles } from '../evidence/build-evidence.js';
import type { BundleSink } from '../evidence/bundle.js';
import type { EvidenceIndex } from '../evidence/evidence-index.js';
import { BundleWriter, checkBundleFolder } from '../bundle-writer/bundle-writer.js';
import { RecordSpool } from '../bundle-writer/record-spool.js';
import { findingsByPosition, type OperationRecords, otherFindingsOf } from '../review/operation-evidence.js';
import type { OperationSummary } from '../review/review-types.js';
import { toSlashes } from '../workspace/load-settings.js';
import { readLintedManifest } from './manifest-input.js';
import { collectGarbage, collectGarbageNow } from './collect-garbage.js';
import { runFixture } from '../simulator/run-fixture.js';
import { outcomeOf, type RunOutcome } from '../simulator/run-outcome.js';
import { countOutcomes, type LiveEvidence } from '../evidence/live-evidence.js';
import { exercised, type WireClaim } from '../live/wire-claims.js';
import { putsCallInFlight } from '../probe/probe-check-catalog.js';
import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import { withoutSourceMap } from '../manifest/without-source-map.js';
import { type LiveFixtureResult, renderLiveFixture } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { renderProbeText } from '../probe/render-probe.js';
import { ruleDocLinks } from '../workspace/rule-docs-base.js';
import { type LiveServer, liveFixturesOf } from './live-fixtures-of.js';
import type { OnProbeEvent, OnProgress } from './on-progress.js';

/** What to bundle: `mcprely evidence`'s options as values. */
export interface EvidenceOptions {
  /** The manifest file. */
  readonly manifest: string;
  /** The folder for the bundle: empty, absent, or an earlier bundle (which is replaced). */
  readonly output: string;
  /** A configuration file for the lint findings, false for none, undefined to look in the working directory. */
  readonly config?: string | false;
  /** Also check the manifest against this live server: probe, drift, live fixtures (under live/ in the bundle). */
  readonly server?: LiveServer;
  /** Told before each operation's fixtures run (and each probe check, with a server). */
  readonly onProgress?: OnProgress;
  /** With a server: told as each probe check starts and ends, and the moment the long tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
}

/** The bundle written, or why it could not be (the manifest, the configuration, the folder, the server). */
export type EvidenceOutcome =
  | {
      readonly ok: true;
      readonly written: EvidenceWritten;
      /** 1 when a fixture failed or the verdict is not production-ready, else 0. */
      readonly exitCode: 0 | 1;
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Writes the evidence bundle of a manifest to a folder: the review, every fixture and its transcript on the
 * reference implementation, the lint findings and an index (index.html, index.md). Each file goes to disk as it is
 * made, so memory stays small whatever the number of operations. Prints nothing.
 */
export async function evidence(options: EvidenceOptions): Promise<EvidenceOutcome> {
  const outcome = await writeEvidence(
    options.manifest,
    options.output,
    options.config,
    options.server,
    options.onProgress,
    options.onProbeEvent,
  );
  if (!outcome.ok) return { ok: false, problem: outcome.report };
  const { failed, productionReady } = outcome.written;
  return { ok: true, written: outcome.written, exitCode: failed > 0 || !productionReady ? 1 : 0 };
}

/** What writing one manifest's evidence bundle came to. */
export interface EvidenceWritten {
  readonly files: number;
  readonly fixtures: number;
  readonly failed: number;
  readonly productionReady: boolean;
  /** The verdict in words, naming its basis. */
  readonly verdict: string;
}

/**
 * Lints `path` (with the configuration: a path, false for none, undefined to look in the working directory),
 * runs its fixtures and writes the evidence bundle to `directory`; or the report of why the manifest cannot be used.
 */
async function writeEvidence(
  path: string,
  directory: string,
  config: string | false | undefined,
  target: LiveServer | undefined,
  onProgress: OnProgress | undefined,
  onProbeEvent?: OnProbeEvent,
): Promise<{ readonly ok: true; readonly written: EvidenceWritten } | { readonly ok: false; readonly report: string }> {
  // Each operation's lint findings go to a temporary file as soon as lint ends (`RecordSpool`), its outcomes as
  // its runs end; each file that shows them reads them back an operation at a time. Every file of the bundle goes
  // to disk as it is made: a run's fixture and transcript as the run ends, the rest one after another; the
  // fixtures are made an operation at a time. So memory holds one operation's records and the summaries, whatever
  // the number of operations.
  const spools: RecordSpool<unknown>[] = [];
  const spool = <T>(): RecordSpool<T> => {
    const opened = RecordSpool.open() as RecordSpool<T>;
    spools.push(opened);
    return opened;
  };
  try {
    const findings = spool<readonly Finding[]>();
    // The lint's result is never held in a variable: once grouped and spooled, it and the source map are garbage.
    const input = spoolFindings(await readLintedManifest(path, config), findings);
    if (!input.ok) return input;
    await collectGarbage();
    checkBundleFolder(directory);
    let live: LiveEvidence | undefined;
    if (target !== undefined) {
      const run = await liveFixturesOf(path, target, onProgress, onProbeEvent);
      if (!run.ok) return { ok: false, report: run.problem };
      live = liveEvidence(run.report, run.drift, run.results, run.claims);
    }
    // Fixtures sit two folders down (fixtures/<operation>/<kind>.json); each names the manifest relative to itself.
    const manifestFromFixture = (depth: number) => toSlashes(relative(resolve(directory, ...Array(depth).fill('x')), resolve(path)));
    const bundle = BundleWriter.open(directory);
    try {
      const outcomes = spool<readonly RunOutcome[]>();
      const operations = input.manifest.operations;
      for (const [position, operation] of operations.entries()) {
        onProgress?.(position, operations.length, operation.spec.name);
        const operationOutcomes: RunOutcome[] = [];
        for (const fixture of operationFixtures(input.manifest, operation)) {
          const run = await runFixture(fixture);
          writeRunFiles(bundle, run, manifestFromFixture(2));
          operationOutcomes.push(outcomeOf(run));
        }
        outcomes.push(operationOutcomes);
      }
      const records: OperationRecords = {
        length: operations.length,
        at: (position) => ({ findings: findings.at(position), outcomes: outcomes.at(position) }),
      };
      const index = writeEvidenceFiles(
        collectingBeforeEachStreamedFile(bundle),
        input.manifest,
        { records, otherFindings: input.otherFindings, summaryStore: spool<OperationSummary> },
        live,
        ruleDocLinks(join(directory, 'index.html'), process.cwd()),
        input.lintOnly,
      );
      bundle.commit();
      return { ok: true, written: written(bundle.size, index) };
    } finally {
      bundle.close();
    }
  } finally {
    for (const opened of spools) opened.close();
  }
}

/**
 * The writer, with a full collection before each file written in pieces (the review and the index, each made from
 * every operation's record). Each leaves garbage that survived two scavenges and so sits in the old generation,
 * which is collected only at its limit: measured at 10 000 operations, live data climbed from 19 to 59 MB over
 * the five files before V8 collected; with a collection before each (~20 ms at ~20 MB live), it stays at 19–22 MB.
 */
function collectingBeforeEachStreamedFile(bundle: BundleWriter): BundleSink {
  return {
    set: (file, text) => bundle.set(file, text),
    get: (file) => bundle.get(file),
    has: (file) => bundle.has(file),
    keys: () => bundle.keys(),
    setChunks: (file, chunks) => {
      collectGarbageNow();
      return bundle.setChunks(file, chunks);
    },
  };
}

function written(files: number, index: EvidenceIndex): EvidenceWritten {
  return {
    files,
    fixtures: index.fixtures.total,
    failed: index.fixtures.failed,
    productionReady: index.productionReady,
    verdict: index.verdict,
  };
}

interface SpooledFindings {
  readonly ok: true;
  /** The manifest without its source map: the fixtures and the review read values only, and the findings carry their own positions. */
  readonly manifest: LoadedManifest;
  readonly lintOnly: RuleVerifications;
  /** Findings about the server or the whole manifest (not one operation). */
  readonly otherFindings: readonly Finding[];
}

/** A linted manifest whose findings about each operation went to `spool`, one record per operation in order. */
function spoolFindings(
  input: Awaited<ReturnType<typeof readLintedManifest>>,
  spool: RecordSpool<readonly Finding[]>,
): SpooledFindings | { readonly ok: false; readonly report: string } {
  if (!input.ok) return input;
  const { manifest, lintOnly, findings } = input;
  const findingsAt = findingsByPosition(findings);
  for (let position = 0; position < manifest.operations.length; position++) spool.push(findingsAt.get(position) ?? []);
  return { ok: true, manifest: withoutSourceMap(manifest), lintOnly, otherFindings: otherFindingsOf(findings) };
}

/** A live run as bundle files under live/: the probe report (JSON and text), the drift findings, each live fixture. */
function liveEvidence(
  report: ProbeReport,
  drift: readonly Finding[],
  results: readonly LiveFixtureResult[],
  claims: readonly WireClaim[],
): LiveEvidence {
  const files = new Map<string, string>();
  files.set('live/probe.json', `${JSON.stringify(report, null, 2)}\n`);
  files.set('live/probe.txt', renderProbeText(report));
  files.set('live/drift.json', `${JSON.stringify(drift, null, 2)}\n`);
  files.set('live/claims.json', `${JSON.stringify(claims, null, 2)}\n`);
  files.set('live/fixtures.txt', results.map(renderLiveFixture).join('\n'));
  return {
    target: report.target,
    transport: report.transport,
    revision: report.revision,
    date: new Date().toISOString().slice(0, 10),
    checks: report.checks.map(({ id, status, summary }) => ({ id, status, summary })),
    claims,
    exercised: exercised(claims, putsCallInFlight),
    drift,
    fixtures: countOutcomes(results),
    files,
  };
}
