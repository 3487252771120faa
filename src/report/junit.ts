import type { LintResult } from '../lint/lint-result.js';
import { activeFindings } from '../lint/lint-result.js';
import { findingTestCase } from './finding-test-case.js';
import { writeJunit } from './junit-writer.js';
import type { TestRun } from './test-suite.js';

/** JUnit XML of a lint run (`lintTestRun`). */
export function formatJunit(result: LintResult): string {
  return writeJunit(lintTestRun(result));
}

/** A lint run as test cases: a suite per file, a failing case per finding (an error case for unreadable input), a passing case for a clean file. */
export function lintTestRun(result: LintResult): TestRun {
  const suites = result.files.map((report) => {
    const findings = activeFindings(report);
    const cases = findings.map((finding) => findingTestCase(finding, report.file, report.inputError ? 'error' : 'fail', finding.severity));
    return {
      name: report.file,
      cases: cases.length > 0 ? cases : [{ classname: report.file, name: 'mcprely lint', status: 'pass' as const }],
    };
  });
  return { name: 'mcprely', suites, countsSkipped: false, emptyCase: 'self-closing' };
}
