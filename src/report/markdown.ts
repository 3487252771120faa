import { describeChange, type Severity } from '../findings/finding.js';
import { activeFindings, type LintResult } from '../lint/lint-result.js';
import { displayText, markdownText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { ruleDocLink, type ReportContext } from './report-context.js';

const BADGE: Record<Severity, string> = { error: '🔴 error', warn: '🟡 warning', info: '🔵 info' };

/**
 * A pull-request comment: a one-line verdict, then a table of findings, each rule linked to its page where the
 * report knows where pages are (--docs-url, or relative to the report).
 */
export function formatMarkdown(result: LintResult, context: Pick<ReportContext, 'rules' | 'ruleDocs'>): string {
  const { suppressed } = result.summary;
  const lines = [`### mcprely: ${findingCounts(result)}`];
  if (suppressed > 0) lines.push('', `${plural(suppressed, 'suppressed finding')} not shown.`);
  const rows = findingRows(result, context);
  if (rows.length > 0) {
    lines.push('', ...FINDING_TABLE_HEAD);
    // One at a time: spreading 150 000 rows into push() overflows the stack.
    for (const row of rows) lines.push(row);
  }
  return `${lines.join('\n')}\n`;
}

/** "✅ no findings in 3 files" or "2 errors, 1 warning, 0 infos in 3 files". */
export function findingCounts(result: LintResult): string {
  const { errors, warnings, infos, files } = result.summary;
  const total = errors + warnings + infos;
  const counts = total === 0 ? '✅ no findings' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`;
  return `${counts} in ${plural(files, 'file')}`;
}

export const FINDING_TABLE_HEAD: readonly string[] = ['| Severity | Where | Rule | Finding |', '|---|---|---|---|'];

/** One table row per unsuppressed finding, in report order. */
export function findingRows(result: LintResult, context: Pick<ReportContext, 'rules' | 'ruleDocs'>): string[] {
  const rules = new Map(context.rules.map((rule) => [rule.id, rule]));
  const rows: string[] = [];
  for (const report of result.files) {
    for (const finding of activeFindings(report)) {
      const where =
        finding.range === undefined ? finding.file : `${finding.file}:${finding.range.start.line}:${finding.range.start.column}`;
      const link = ruleDocLink(context, rules.get(finding.ruleId));
      const rule = link === undefined ? code(finding.ruleId) : `[${code(finding.ruleId)}](${link})`;
      const fix = finding.autofix === undefined ? '*Fix:*' : '*Fix (mcprely lint --fix does it):*';
      const claim =
        finding.claimFix === undefined
          ? ''
          : ` *Claim change:* ${describeChange(finding.claimFix, finding.path)} — the manifest would claim it; make the server do it ` +
            '(`mcprely lint --fix --fix-type claim` writes it).';
      const suggestion =
        finding.suggestion === undefined
          ? ''
          : ` *Suggested:* ${describeChange(finding.suggestion, finding.path)} (check the value first).`;
      const text = finding.fix === undefined ? finding.message : `${finding.message}. ${fix} ${finding.fix}${claim}${suggestion}`;
      rows.push(`| ${BADGE[finding.severity]} | ${code(where)} | ${rule} | ${cell(text)} |`);
    }
  }
  return rows;
}

/** A table cell: no pipe, newline, HTML or control character from the input survives as structure. */
function cell(text: string): string {
  return markdownText(text);
}

/** A code span: control characters escaped, no backtick to end it early, no pipe to end the cell. */
export function code(text: string): string {
  return `\`${displayText(text).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}
