import type { Finding } from '../findings/finding.js';
import { findingTestCase } from '../report/finding-test-case.js';
import { writeJunit } from '../report/junit-writer.js';
import type { TestCase, TestRun, TestSuite } from '../report/test-suite.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { describeExpectation, renderRun } from '../simulator/render-transcript.js';
import { plural } from '../text/plural.js';

/** Version of the JSON verify report's shape (schemas/verify-report.schema.json); bumped on any incompatible change. */
export const VERIFY_REPORT_VERSION = 1;

/** One fixture's run and where it came from: the manifest it was generated from, or its fixture file. */
export interface SourcedRun {
  readonly source: string;
  readonly run: FixtureRun;
}

/** What `verify` found: the fixtures it ran, and the findings of each file it could not use. */
export interface VerifyOutcome {
  readonly runs: readonly SourcedRun[];
  readonly unusable: readonly (readonly Finding[])[];
}

export const VERIFY_FORMATS = ['text', 'json', 'junit'] as const;
export type VerifyFormat = (typeof VERIFY_FORMATS)[number];

export function verifySummary(outcome: VerifyOutcome) {
  const failed = outcome.runs.filter(({ run }) => !run.passed).length;
  const ledgerStandIns = outcome.runs.filter(({ run }) => run.ledger?.standIn === true).length;
  return {
    fixtures: outcome.runs.length,
    passed: outcome.runs.length - failed,
    failed,
    unusableFiles: outcome.unusable.length,
    ledgerStandIns,
  };
}

/** The machine-readable report: every fixture with its expectations and transcript, and the files that could not be used. */
export function formatVerifyJson(outcome: VerifyOutcome, toolVersion: string): string {
  const report = {
    version: VERIFY_REPORT_VERSION,
    tool: { name: 'mcprely', version: toolVersion },
    summary: verifySummary(outcome),
    fixtures: outcome.runs.map(({ source, run }) => ({
      id: run.fixture.id,
      kind: run.fixture.kind,
      title: run.fixture.title,
      operation: run.fixture.operation,
      transport: run.fixture.transport,
      specVersion: run.fixture.specVersion,
      source,
      passed: run.passed,
      ...(run.ledger === undefined ? {} : { ledger: run.ledger }),
      expectations: run.results.map((result) => ({
        check: result.expectation.check,
        description: describeExpectation(result.expectation),
        passed: result.passed,
        detail: result.detail,
      })),
      transcript: run.transcript,
    })),
    errors: outcome.unusable.flat(),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * Where the fixtures' ledgers ran, in one sentence for the text report, when any declares PostgreSQL: on the
 * database given, or on SQLite as a stand-in (said plainly, with how to run them on PostgreSQL).
 */
export function ledgerStoreLine(outcome: VerifyOutcome, databasePlace: string | undefined): string | undefined {
  const postgres = outcome.runs.filter(({ run }) => run.ledger?.declared === 'postgres' && run.ledger.ranOn !== 'memory');
  if (postgres.length === 0) return undefined;
  const standIns = postgres.filter(({ run }) => run.ledger?.standIn === true).length;
  if (standIns === 0)
    return `Ledger: the ${plural(postgres.length, 'fixture')} whose ledger the manifest keeps in PostgreSQL ran on ${databasePlace ?? 'PostgreSQL'}`;
  return (
    `Ledger: the manifest keeps its ledger in PostgreSQL, but no database was given: ${plural(standIns, 'fixture')} ran it on SQLite as a stand-in ` +
    '(verify --database-url postgres://… or MCPRELY_DATABASE_URL runs them on PostgreSQL)'
  );
}

/** JUnit XML of a verify run (`verifyTestRun`). */
export function formatVerifyJunit(outcome: VerifyOutcome): string {
  return writeJunit(verifyTestRun(outcome));
}

/**
 * A verify run as test cases: a suite per manifest or fixture file, a case per fixture (named by its id and
 * transport) with its transcript as the case's output and, when it fails, the expectations that failed; a file
 * that could not be used is a suite with an error case per finding.
 */
export function verifyTestRun(outcome: VerifyOutcome): TestRun {
  const sources = new Map<string, SourcedRun[]>();
  for (const sourced of outcome.runs) sources.set(sourced.source, [...(sources.get(sourced.source) ?? []), sourced]);
  const suites: TestSuite[] = [...sources].map(([source, runs]) => ({
    name: source,
    cases: runs.map(({ run }): TestCase => {
      const failed = run.results.filter((result) => !result.passed);
      const identity = { classname: source, name: `${run.fixture.id} [${run.fixture.transport}]`, output: renderRun(run) };
      if (failed.length === 0) return { ...identity, status: 'pass' };
      return {
        ...identity,
        status: 'fail',
        type: 'fixture',
        message: `${failed.length} of ${run.results.length} expectations failed`,
        details: failed.map((result) => `${describeExpectation(result.expectation)}: ${result.detail}`).join('\n'),
      };
    }),
  }));
  for (const findings of outcome.unusable) {
    const file = findings[0]?.file ?? '';
    suites.push({ name: file, cases: findings.map((finding) => findingTestCase(finding, file, 'error', finding.ruleId)) });
  }
  return { name: 'mcprely verify', suites, countsSkipped: false, emptyCase: 'self-closing' };
}
