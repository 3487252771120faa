import { dirname, resolve } from 'node:path';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import type { Finding } from '../findings/finding.js';
import { FIXTURE_PROBLEM_RULES, problemFindings } from '../lint/problem-findings.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import { makeProblem } from '../document/problem.js';
import { locate, type SourceNode } from '../document/source-map.js';
import { countOutcomes, type OutcomeCounts } from '../evidence/live-evidence.js';
import type { LiveFixtureResult } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { InvalidArgumentError, LedgerError } from '../reference/errors.js';
import { PostgresMutationLedger } from '../reference/postgres-mutation-ledger.js';
import { FixtureError } from '../simulator/fixture-error.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { contradictions, loadFixture } from '../verify/load-fixture.js';
import { runFixture } from '../simulator/run-fixture.js';
import { type SourcedRun, type VerifyOutcome, verifySummary } from '../verify/verify-report.js';
import { readManifestFile } from '../workspace/read-manifest-file.js';
import { type LiveServer, liveFixturesOf } from './live-fixtures-of.js';
import type { OnProbeEvent, OnProgress } from './on-progress.js';

/** What to verify: `mcprely verify`'s options as values. */
export interface VerifyOptions {
  /** Manifests (their fixtures are generated) or fixture files; with `server`, one manifest. */
  readonly paths: readonly string[];
  /** A PostgreSQL database for the ledgers the manifest keeps in PostgreSQL (default: SQLite stands in). */
  readonly databaseUrl?: string;
  /** Run the manifest's fixtures against this live server instead of the reference implementation. */
  readonly server?: LiveServer;
  /** Told before each fixture (or each probe check, live). */
  readonly onProgress?: OnProgress;
  /** Live: told as each probe check starts and ends, and the moment the long tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
  /** Given each run on the reference implementation as it ends (its transcript included). */
  readonly onRun?: (run: FixtureRun) => void;
}

/** The fixtures run on the reference implementation. */
export interface ReferenceVerification {
  readonly ok: true;
  readonly on: 'reference';
  /** Each run, and the findings of each file that could not be used as a manifest or fixture. */
  readonly outcome: VerifyOutcome;
  readonly summary: ReturnType<typeof verifySummary>;
  /** Fixtures whose ledger's database failed (it went away, or refused a query): no verdict. */
  readonly databaseFailures: readonly { readonly fixture: string; readonly message: string }[];
  /** 2 when a file could not be used or a database failed, 1 when a fixture failed, else 0. */
  readonly exitCode: 0 | 1 | 2;
}

/** The fixtures run against a live server, each by the probe check that plays its scenario on the wire. */
export interface LiveVerification {
  readonly ok: true;
  readonly on: 'live';
  readonly report: ProbeReport;
  readonly results: readonly LiveFixtureResult[];
  readonly counts: OutcomeCounts;
  /** 1 when a fixture failed, 3 when none was exercised (inconclusive: not a pass), else 0. */
  readonly exitCode: 0 | 1 | 3;
}

/** The verification, or why it could not start (the options, a manifest, the database), as lines of text. */
export type VerifyResult = ReferenceVerification | LiveVerification | { readonly ok: false; readonly problem: string };

/**
 * Runs fixtures on the reference implementation (a manifest's, generated, or fixture files), or, with `server`,
 * a manifest's fixtures against the live server it describes. A file that cannot be used is findings of its own;
 * the others still run. Prints nothing.
 */
export async function verify(options: VerifyOptions): Promise<VerifyResult> {
  if (options.server === undefined) return verifyOnReference(options);
  if (options.paths.length !== 1)
    return { ok: false, problem: 'error: verify --stdio/--url takes one manifest (its fixtures are run against the server)\n' };
  const live = await liveFixturesOf(options.paths[0]!, options.server, options.onProgress, options.onProbeEvent);
  if (!live.ok) return live;
  const counts = countOutcomes(live.results);
  const exitCode = counts.fail > 0 ? 1 : counts.pass === 0 ? 3 : 0;
  return { ok: true, on: 'live', report: live.report, results: live.results, counts, exitCode };
}

/** A fixture ready to run, with what is needed to place an error found while running it. */
interface Runnable {
  readonly fixture: Fixture;
  /** The manifest it was generated from, or its fixture file. */
  readonly origin: string;
  readonly file?: string;
  readonly text?: string;
  readonly source?: SourceNode;
}

async function verifyOnReference(options: VerifyOptions): Promise<VerifyResult> {
  const { paths } = options;
  const errors: Finding[][] = [];
  const runnable: Runnable[] = [];
  const manifests = new Map<string, LoadedManifest | Finding[]>();
  for (const path of paths) {
    const read = readManifestFile(path);
    if (!read.ok) {
      errors.push([read.finding]);
      continue;
    }
    const parsed = parseDocumentBytes(path, read.bytes);
    const isFixture =
      parsed.ok && typeof parsed.document.value === 'object' && parsed.document.value !== null && 'mcprelyFixture' in parsed.document.value;
    if (!isFixture) {
      const loaded = loadManifest(path, read.bytes);
      if (!loaded.ok) errors.push(problemFindings(path, loaded.text, loaded.problems));
      else for (const fixture of generateFixtures(loaded)) runnable.push({ fixture, origin: path });
      continue;
    }
    const loaded = loadFixture(path, read.bytes);
    if (!loaded.ok) {
      errors.push(problemFindings(path, loaded.text, loaded.problems, FIXTURE_PROBLEM_RULES));
      continue;
    }
    if (loaded.fixture.manifest !== undefined) {
      const manifestPath = resolve(dirname(path), loaded.fixture.manifest);
      const manifest = manifestFor(manifestPath, manifests);
      if (Array.isArray(manifest)) {
        const place = locate(loaded.source, ['manifest']);
        errors.push(
          problemFindings(
            path,
            loaded.text,
            [
              makeProblem('schema', {
                messageId: 'manifest-unusable',
                template: 'The manifest this fixture names ({manifest}) cannot be used: {reason}',
                data: { manifest: loaded.fixture.manifest, reason: manifest[0]?.message ?? 'unknown problem' },
                fix: 'fix the manifest or the path in "manifest"',
                path: ['manifest'],
                start: place.start,
                end: place.end,
              }),
            ],
            FIXTURE_PROBLEM_RULES,
          ),
        );
        continue;
      }
      const problems = contradictions(loaded.fixture, loaded.source, manifest);
      if (problems.length > 0) {
        errors.push(problemFindings(path, loaded.text, problems, FIXTURE_PROBLEM_RULES));
        continue;
      }
    }
    runnable.push({ fixture: loaded.fixture, origin: path, file: path, text: loaded.text, source: loaded.source });
  }

  if (options.databaseUrl !== undefined) {
    try {
      await PostgresMutationLedger.checkConnection(options.databaseUrl);
    } catch (error) {
      if (!(error instanceof LedgerError || error instanceof InvalidArgumentError)) throw error;
      return { ok: false, problem: `error: --database-url: ${error.message}\n` };
    }
  }
  const runs: SourcedRun[] = [];
  const databaseFailures: { fixture: string; message: string }[] = [];
  for (const [index, item] of runnable.entries()) {
    options.onProgress?.(index, runnable.length, item.fixture.id);
    try {
      const run = await runFixture(item.fixture, options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl });
      runs.push({ source: item.origin, run });
      options.onRun?.(run);
    } catch (error) {
      if (error instanceof LedgerError) {
        // The database the ledger runs on failed (it went away, or refused a query): the run is not a verdict.
        databaseFailures.push({ fixture: item.fixture.id, message: error.message });
        continue;
      }
      if (!(error instanceof FixtureError)) throw error;
      const file = item.file ?? item.fixture.id;
      const place = item.source === undefined ? undefined : locate(item.source, error.path);
      errors.push(
        problemFindings(
          file,
          item.text ?? '',
          [
            makeProblem('schema', {
              messageId: 'fixture-step',
              template: '{reason}',
              data: { reason: error.message },
              fix: 'correct the step',
              path: error.path,
              ...(place === undefined ? {} : { start: place.start, end: place.end }),
            }),
          ],
          FIXTURE_PROBLEM_RULES,
        ),
      );
    }
  }
  const outcome: VerifyOutcome = { runs, unusable: errors };
  const summary = verifySummary(outcome);
  const exitCode = errors.length > 0 || databaseFailures.length > 0 ? 2 : summary.failed > 0 ? 1 : 0;
  return { ok: true, on: 'reference', outcome, summary, databaseFailures, exitCode };
}

function manifestFor(path: string, cache: Map<string, LoadedManifest | Finding[]>): LoadedManifest | Finding[] {
  let cached = cache.get(path);
  if (cached === undefined) {
    const read = readManifestFile(path);
    if (!read.ok) cached = [read.finding];
    else {
      const loaded = loadManifest(path, read.bytes);
      cached = loaded.ok ? loaded : problemFindings(path, loaded.text, loaded.problems);
    }
    cache.set(path, cached);
  }
  return cached;
}
