import type { Finding } from '../findings/finding.js';
import { escapeXml, findingCase } from '../report/junit.js';
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

/**
 * JUnit XML as CI test reporters read it: a suite per manifest or fixture file, a test case per fixture (named
 * by its id and transport) with its transcript as the case's output and, when it fails, the expectations that
 * failed; a file that could not be used is a suite with an error case per finding.
 */
export function formatVerifyJunit(outcome: VerifyOutcome): string {
  const sources = new Map<string, SourcedRun[]>();
  for (const sourced of outcome.runs) sources.set(sourced.source, [...(sources.get(sourced.source) ?? []), sourced]);
  const suites: string[] = [];
  for (const [source, runs] of sources) {
    const failures = runs.filter(({ run }) => !run.passed).length;
    const cases = runs.map(({ run }) => {
      const failed = run.results.filter((result) => !result.passed);
      const failure =
        failed.length === 0
          ? ''
          : `\n      <failure type="fixture" message="${escapeXml(`${failed.length} of ${run.results.length} expectations failed`)}">${escapeXml(
              failed.map((result) => `${describeExpectation(result.expectation)}: ${result.detail}`).join('\n'),
            )}</failure>`;
      const name = escapeXml(`${run.fixture.id} [${run.fixture.transport}]`);
      return (
        `    <testcase classname="${escapeXml(source)}" name="${name}">${failure}\n` +
        `      <system-out>${escapeXml(renderRun(run))}</system-out>\n    </testcase>`
      );
    });
    suites.push(
      `  <testsuite name="${escapeXml(source)}" tests="${runs.length}" failures="${failures}" errors="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  for (const findings of outcome.unusable) {
    const file = findings[0]?.file ?? '';
    const cases = findings.map((finding) => findingCase(finding, file, 'error', finding.ruleId));
    suites.push(
      `  <testsuite name="${escapeXml(file)}" tests="${cases.length}" failures="0" errors="${cases.length}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const summary = verifySummary(outcome);
  const errors = outcome.unusable.reduce((sum, findings) => sum + findings.length, 0);
  const counts = `tests="${summary.fixtures + errors}" failures="${summary.failed}" errors="${errors}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcprely verify" ${counts}>\n${suites.join('\n')}\n</testsuites>\n`;
}
