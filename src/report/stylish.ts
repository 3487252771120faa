import { describeChange, type Finding } from '../findings/finding.js';
import { activeFindings, type LintResult } from '../lint/lint-result.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import type { ReportContext } from './report-context.js';

const ANSI = {
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  blue: '\u001b[34m',
  dim: '\u001b[2m',
  bold: '\u001b[1m',
  underline: '\u001b[4m',
  reset: '\u001b[0m',
} as const;
const SEVERITY_COLOUR = { error: ANSI.red, warn: ANSI.yellow, info: ANSI.blue } as const;

const SEVERITY_WORD = { error: 'error', warn: 'warning', info: 'info' } as const;

/**
 * Grouped by file as ESLint's stylish is: the file's path on its own line, one indented line per finding
 * (`line:column  severity  message. Fix: …  rule-id`, columns aligned within the file), a blank line, then
 * `✖ N problems (E errors, W warnings)`. A finding without a place (an unreadable file) is at 0:0. Colour only
 * when asked (a terminal); everything from the input is shown with its control characters escaped.
 */
export function formatStylish(result: LintResult, context: Pick<ReportContext, 'color'>): string {
  const paint = (code: string, text: string) => (context.color ? `${code}${text}${ANSI.reset}` : text);
  const lines: string[] = [];
  for (const report of result.files) {
    const findings = activeFindings(report);
    if (findings.length === 0) continue;
    lines.push(paint(ANSI.underline, displayText(report.file)));
    const rows = findings.map((finding) => findingRow(finding));
    // Widths by a loop, never Math.max(...rows): a file may hold hundreds of thousands of findings.
    let placeWidth = 0;
    let severityWidth = 0;
    let messageWidth = 0;
    for (const row of rows) {
      placeWidth = Math.max(placeWidth, row.place.length);
      severityWidth = Math.max(severityWidth, row.severity.length);
      messageWidth = Math.max(messageWidth, row.message.length);
    }
    rows.forEach((row, index) => {
      const severity = paint(SEVERITY_COLOUR[findings[index]!.severity], row.severity.padEnd(severityWidth));
      lines.push(
        `  ${paint(ANSI.dim, row.place.padEnd(placeWidth))}  ${severity}  ${row.message.padEnd(messageWidth)}  ${paint(ANSI.dim, row.rule)}`,
      );
    });
    lines.push('');
  }
  lines.push(...summaryLines(result, paint));
  // What --fix would do for you; the other findings' Fix: words need a number or a name only you know.
  const fixable = result.files.reduce(
    (sum, report) => sum + activeFindings(report).filter((finding) => finding.autofix !== undefined).length,
    0,
  );
  if (fixable > 0)
    lines.push(paint(ANSI.dim, `${plural(fixable, 'finding')} can be fixed with mcprely lint --fix (--fix-dry-run shows the diff).`));
  const claims = result.files.reduce(
    (sum, report) =>
      sum + activeFindings(report).filter((finding) => finding.autofix === undefined && finding.claimFix !== undefined).length,
    0,
  );
  if (claims > 0)
    lines.push(
      paint(
        ANSI.dim,
        `${plural(claims, 'finding')} ${claims === 1 ? 'has a claim change' : 'have claim changes'}: the manifest would say the server does it, ` +
          'so make the server do it (mcprely lint --fix --fix-type claim writes the claim and lists what to change).',
      ),
    );
  const suggested = result.files.reduce(
    (sum, report) =>
      sum +
      activeFindings(report).filter(
        (finding) => finding.autofix === undefined && finding.claimFix === undefined && finding.suggestion !== undefined,
      ).length,
    0,
  );
  if (suggested > 0)
    lines.push(
      paint(
        ANSI.dim,
        `${plural(suggested, 'finding')} ${suggested === 1 ? 'has' : 'have'} a suggested value: ` +
          'check it fits, then write it in (lint --fix leaves these to you).',
      ),
    );
  return `${lines.join('\n')}\n`;
}

/** A finding's cells; everything from the input (message, fix) has its control characters escaped: one finding, one line. */
function findingRow(finding: Finding): { place: string; severity: string; message: string; rule: string } {
  const place = finding.range === undefined ? '0:0' : `${finding.range.start.line}:${finding.range.start.column}`;
  const fix = finding.fix === undefined ? '' : `. Fix: ${finding.fix.charAt(0).toUpperCase()}${finding.fix.slice(1).replace(/\.$/, '')}`;
  const claim = finding.claimFix === undefined ? '' : ` (claim change: ${describeChange(finding.claimFix, finding.path)})`;
  const suggestion = finding.suggestion === undefined ? '' : ` (suggested: ${describeChange(finding.suggestion, finding.path)})`;
  return {
    place,
    severity: SEVERITY_WORD[finding.severity],
    message: displayText(`${finding.message}${fix}${claim}${suggestion}`),
    rule: displayText(finding.ruleId),
  };
}

function summaryLines(result: LintResult, paint: (code: string, text: string) => string): string[] {
  const { errors, warnings, infos, files, suppressed } = result.summary;
  const total = errors + warnings + infos;
  const hidden = suppressed > 0 ? `${plural(suppressed, 'suppressed finding')} not shown.` : undefined;
  if (total === 0) return [`No findings in ${plural(files, 'file')}${hidden === undefined ? '' : `; ${hidden}`}`.replace(/\.?$/, '.')];
  const parts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos > 0) parts.push(plural(infos, 'info'));
  const colour = errors > 0 ? ANSI.red : warnings > 0 ? ANSI.yellow : ANSI.blue;
  const summary = paint(`${ANSI.bold}${colour}`, `\u2716 ${plural(total, 'problem')} (${parts.join(', ')})`);
  return hidden === undefined ? [summary] : [summary, paint(ANSI.dim, hidden)];
}
