import type { LintResult } from '../lint/lint-result.js';
import type { Finding } from '../findings/finding.js';

/** One line per finding, `file:line:column: severity: message; fix [rule]`, which terminals and editors make clickable. */
export function formatStylish(result: LintResult): string {
  const lines: string[] = [];
  for (const report of result.files) for (const finding of report.findings) lines.push(findingLine(finding));
  lines.push(summaryLine(result));
  return lines.join('\n') + '\n';
}

function findingLine(finding: Finding): string {
  const place = finding.range === undefined ? finding.file : `${finding.file}:${finding.range.start.line}:${finding.range.start.column}`;
  const fix = finding.fix === undefined ? '' : `; ${finding.fix}`;
  return `${place}: ${finding.severity}: ${finding.message}${fix} [${finding.ruleId}]`;
}

function summaryLine(result: LintResult): string {
  const { errors, warnings, infos, files } = result.summary;
  const total = errors + warnings + infos;
  if (total === 0) return `No findings in ${plural(files, 'file')}.`;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos > 0) parts.push(plural(infos, 'info'));
  return `${plural(total, 'finding')} (${parts.join(', ')}) in ${plural(files, 'file')}.`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
