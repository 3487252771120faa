import { describePlace } from '../reference/postgres-mutation-ledger.js';
import { renderRun } from '../simulator/render-transcript.js';
import { errorReport } from '../workspace/error-report.js';
import { displayText } from '../text/display-text.js';
import { formatVerifyJson, formatVerifyJunit, type VerifyFormat, ledgerStoreLine } from '../verify/verify-report.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { plural } from '../text/plural.js';
import { verify } from '../api/verify.js';
import { terminalProgress } from './terminal-progress.js';

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
  const progress = terminalProgress();
  let verified: Awaited<ReturnType<typeof verify>>;
  try {
    verified = await verify({
      paths,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      onProgress: progress.onProgress,
      onRun: (run) => {
        if (text) write(`${renderRun(run)}\n`);
      },
    });
  } finally {
    progress.done();
  }
  if (!verified.ok) {
    process.stderr.write(verified.problem);
    return 2;
  }
  if (verified.on !== 'reference') throw new Error('verify without a server runs on the reference implementation');
  for (const failure of verified.databaseFailures)
    process.stderr.write(`error: ${displayText(failure.fixture)}: the ledger's database failed: ${failure.message}\n`);
  const { outcome, summary } = verified;
  const errors = outcome.unusable;
  if (options.format === 'json') write(formatVerifyJson(outcome, toolVersion));
  else if (options.format === 'junit') write(formatVerifyJunit(outcome));
  else {
    write(
      `Summary: ${plural(summary.fixtures, 'fixture')} run, ${summary.passed} passed, ${summary.failed} failed` +
        `${errors.length > 0 ? `; ${plural(errors.length, 'file')} could not be used` : ''}\n`,
    );
    for (const { run } of outcome.runs)
      write(`  ${run.passed ? 'PASS' : 'FAIL'}  ${displayText(run.fixture.id)}  [${run.fixture.transport}]\n`);
    const ledger = ledgerStoreLine(outcome, options.databaseUrl === undefined ? undefined : describePlace(options.databaseUrl));
    if (ledger !== undefined) write(`${ledger}\n`);
  }
  if (options.output !== undefined) writeOutputFile(options.output, report.join(''), 'the verify report');
  if (errors.length > 0) process.stderr.write(errorReport(errors.flat()));
  return verified.exitCode;
}
