import type { Severity } from '../findings/finding.js';
import { activeFindings, type LintResult } from '../lint/lint-result.js';
import { displayText } from '../text/display-text.js';
import { claimChangeText } from './claim-change.js';

const COMMAND: Record<Severity, string> = { error: 'error', warn: 'warning', info: 'notice' };

/** GitHub Actions workflow commands: one annotation per finding, escaped as the runner requires. */
export function formatGithub(result: LintResult): string {
  const lines: string[] = [];
  for (const report of result.files) {
    for (const finding of activeFindings(report)) {
      const properties: [string, string | number][] = [['file', displayText(finding.file)]];
      if (finding.range !== undefined) {
        properties.push(
          ['line', finding.range.start.line],
          ['col', finding.range.start.column],
          ['endLine', finding.range.end.line],
          ['endColumn', finding.range.end.column],
        );
      }
      properties.push(['title', `mcprely ${displayText(finding.ruleId)}`]);
      // Control characters are escaped visibly first, so no text can end the command or start another.
      const claim = claimChangeText(finding);
      const said = finding.fix === undefined ? finding.message : `${finding.message}. ${finding.fix}`;
      const text = displayText(claim === '' ? said : `${said}. ${claim}`);
      lines.push(
        `::${COMMAND[finding.severity]} ${properties.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(',')}::${escapeData(text)}`,
      );
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
