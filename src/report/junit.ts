import type { Finding } from '../findings/finding.js';
import type { LintResult } from '../lint/lint-result.js';
import { activeFindings } from '../lint/lint-result.js';
import { claimChangeText } from './claim-change.js';

/** JUnit XML: a suite per file, a failing test case per finding (an error case for unreadable input), a passing case for a clean file. */
export function formatJunit(result: LintResult): string {
  const suites = result.files.map((report) => {
    const findings = activeFindings(report);
    const cases = findings.map((finding) => findingCase(finding, report.file, report.inputError ? 'error' : 'failure', finding.severity));
    if (cases.length === 0) cases.push(`    <testcase classname="${escapeXml(report.file)}" name="mcprely lint"/>`);
    const failures = report.inputError ? 0 : findings.length;
    const errors = report.inputError ? findings.length : 0;
    const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}"`;
    return `  <testsuite name="${escapeXml(report.file)}" ${counts}>\n${cases.join('\n')}\n  </testsuite>`;
  });
  const failures = result.files.filter((report) => !report.inputError).reduce((sum, report) => sum + activeFindings(report).length, 0);
  const errors = result.files.filter((report) => report.inputError).reduce((sum, report) => sum + activeFindings(report).length, 0);
  const tests = result.files.reduce((sum, report) => sum + Math.max(1, activeFindings(report).length), 0);
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcprely" ${counts}>\n${suites.join('\n')}\n</testsuites>\n`;
}

/** One finding as a JUnit test case named by its rule and place, failing (or in error) with its message and fix. */
export function findingCase(finding: Finding, classname: string, element: 'failure' | 'error', type: string): string {
  const place = finding.range === undefined ? finding.file : `${finding.file}:${finding.range.start.line}:${finding.range.start.column}`;
  const claim = claimChangeText(finding);
  const body = escapeXml(
    `${place}: ${finding.message}${finding.fix === undefined ? '' : `\nFix: ${finding.fix}`}${claim === '' ? '' : `\n${claim}`}`,
  );
  const name = escapeXml(`${finding.ruleId} ${finding.path || '/'}`);
  const failure = `<${element} type="${escapeXml(type)}" message="${escapeXml(finding.message)}">${body}</${element}>`;
  return `    <testcase classname="${escapeXml(classname)}" name="${name}">\n      ${failure}\n    </testcase>`;
}

export function escapeXml(text: string): string {
  // Characters XML 1.0 cannot carry at all (most controls, lone surrogates) are written as visible escapes;
  // the five specials are escaped; the rest stays exact.
  return text
    .replace(
      /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
