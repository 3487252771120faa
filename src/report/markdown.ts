import type { Severity } from '../findings/finding.js';
import { activeFindings, type LintResult } from '../lint/lint-result.js';
import { displayText, markdownText } from '../text/display-text.js';
import { plural } from './plural.js';
import { ruleDocsUrl } from './report-context.js';

const BADGE: Record<Severity, string> = { error: '🔴 error', warn: '🟡 warning', info: '🔵 info' };

/** A pull-request comment: a one-line verdict, then a table of findings with links to each rule's page. */
export function formatMarkdown(result: LintResult): string {
  const { errors, warnings, infos, files, suppressed } = result.summary;
  const total = errors + warnings + infos;
  const lines = [
    `### mcprely: ${total === 0 ? '✅ no findings' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`}` +
      ` in ${plural(files, 'file')}`,
  ];
  if (suppressed > 0) lines.push('', `${plural(suppressed, 'suppressed finding')} not shown.`);
  if (total > 0) {
    lines.push('', '| Severity | Where | Rule | Finding |', '|---|---|---|---|');
    for (const report of result.files) {
      for (const finding of activeFindings(report)) {
        const where =
          finding.range === undefined ? finding.file : `${finding.file}:${finding.range.start.line}:${finding.range.start.column}`;
        const rule = finding.ruleId.startsWith('manifest-')
          ? code(finding.ruleId)
          : `[${code(finding.ruleId)}](${ruleDocsUrl(finding.ruleId)})`;
        const text = finding.fix === undefined ? finding.message : `${finding.message}. *Fix:* ${finding.fix}`;
        lines.push(`| ${BADGE[finding.severity]} | ${code(where)} | ${rule} | ${cell(text)} |`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A table cell: no pipe, newline, HTML or control character from the input survives as structure. */
function cell(text: string): string {
  return markdownText(text);
}

/** A code span: control characters escaped, no backtick to end it early, no pipe to end the cell. */
function code(text: string): string {
  return `\`${displayText(text).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}
