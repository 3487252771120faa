import { dirname, resolve } from 'node:path';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import type { Finding } from '../findings/finding.js';
import { FIXTURE_PROBLEM_RULES, problemFindings } from '../lint/problem-findings.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import { makeProblem } from '../document/problem.js';
import { locate, type SourceNode } from '../document/source-map.js';
import { InvalidArgumentError, LedgerError } from '../reference/errors.js';
import { describePlace, PostgresMutationLedger } from '../reference/postgres-mutation-ledger.js';
import { FixtureError } from '../simulator/fixture-error.js';
import { contradictions, loadFixture } from '../verify/load-fixture.js';
import { renderRun } from '../simulator/render-transcript.js';
import { runFixture } from '../simulator/run-fixture.js';
import { errorReport } from '../workspace/error-report.js';
import { readManifestFile } from '../workspace/read-manifest-file.js';
import { Progress } from './progress.js';
import { displayText } from '../text/display-text.js';
import {
  formatVerifyJson,
  formatVerifyJunit,
  type SourcedRun,
  type VerifyFormat,
  ledgerStoreLine,
  type VerifyOutcome,
  verifySummary,
} from '../verify/verify-report.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { plural } from '../text/plural.js';

/** A fixture ready to run, with what is needed to place an error found while running it. */
interface Runnable {
  readonly fixture: Fixture;
  /** The manifest it was generated from, or its fixture file. */
  readonly origin: string;
  readonly file?: string;
  readonly text?: string;
  readonly source?: SourceNode;
}

export interface VerifyOptions {
  readonly format: VerifyFormat;
  /** Absent: standard output. */
  readonly output?: string;
  /** A PostgreSQL database for the ledgers the manifest keeps in PostgreSQL (absent: SQLite stands in, said so). */
  readonly databaseUrl?: string;
}

/**
 * `mcprely verify <manifest | fixture files…>`: runs fixtures on the reference implementation, prints a
 * transcript per fixture and a summary (or the JSON or JUnit report of them). Exit 1 when a fixture fails, 2
 * when a file cannot be used as a manifest or fixture (the others still run).
 */
export async function runVerify(paths: readonly string[], options: VerifyOptions, toolVersion: string): Promise<number> {
  const text = options.format === 'text';
  const report: string[] = [];
  const write = (chunk: string) => {
    if (options.output === undefined) process.stdout.write(chunk);
    else report.push(chunk);
  };
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
      process.stderr.write(`error: --database-url: ${error.message}\n`);
      return 2;
    }
  }
  const progress = new Progress(process.stderr, runnable.length);
  const runs: SourcedRun[] = [];
  let databaseFailed = false;
  for (const [index, item] of runnable.entries()) {
    progress.update(index, item.fixture.id);
    try {
      const run = await runFixture(item.fixture, options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl });
      runs.push({ source: item.origin, run });
      if (text) write(`${renderRun(run)}\n`);
    } catch (error) {
      if (error instanceof LedgerError) {
        // The database the ledger runs on failed (it went away, or refused a query): the run is not a verdict.
        process.stderr.write(`error: ${displayText(item.fixture.id)}: the ledger's database failed: ${error.message}\n`);
        databaseFailed = true;
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
  progress.done();

  const outcome: VerifyOutcome = { runs, unusable: errors };
  const summary = verifySummary(outcome);
  if (options.format === 'json') write(formatVerifyJson(outcome, toolVersion));
  else if (options.format === 'junit') write(formatVerifyJunit(outcome));
  else {
    write(
      `Summary: ${plural(summary.fixtures, 'fixture')} run, ${summary.passed} passed, ${summary.failed} failed` +
        `${errors.length > 0 ? `; ${plural(errors.length, 'file')} could not be used` : ''}\n`,
    );
    for (const { run } of runs) write(`  ${run.passed ? 'PASS' : 'FAIL'}  ${displayText(run.fixture.id)}  [${run.fixture.transport}]\n`);
    const ledger = ledgerStoreLine(outcome, options.databaseUrl === undefined ? undefined : describePlace(options.databaseUrl));
    if (ledger !== undefined) write(`${ledger}\n`);
  }
  if (options.output !== undefined) writeOutputFile(options.output, report.join(''), 'the verify report');
  if (errors.length > 0) process.stderr.write(errorReport(errors.flat()));
  if (errors.length > 0 || databaseFailed) return 2;
  return summary.failed > 0 ? 1 : 0;
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
