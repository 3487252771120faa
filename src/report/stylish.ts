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
  reset: '\u001b[0m',
} as const;
const SEVERITY_COLOUR = { error: ANSI.red, warn: ANSI.yellow, info: ANSI.blue } as const;

/** One line per finding, `file:line:column: severity: message. Fix: fix [rule]`, which terminals and editors make clickable. */
export function formatStylish(result: LintResult, context: Pick<ReportContext, 'color'>): string {
  const paint = (code: string, text: string) => (context.color ? `${code}${text}${ANSI.reset}` : text);
  const lines: string[] = [];
  for (const report of result.files) {
    for (const finding of activeFindings(report)) lines.push(findingLine(finding, paint));
  }
  lines.push(summaryLine(result, paint));
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

/** Everything from the input (file name, message, fix) is shown with its control characters escaped: one finding, one line. */
function findingLine(finding: Finding, paint: (code: string, text: string) => string): string {
  const file = displayText(finding.file);
  const place = finding.range === undefined ? file : `${file}:${finding.range.start.line}:${finding.range.start.column}`;
  const fix = finding.fix === undefined ? '' : `. Fix: ${finding.fix.charAt(0).toUpperCase()}${finding.fix.slice(1).replace(/\.$/, '')}`;
  const severity = paint(SEVERITY_COLOUR[finding.severity], finding.severity);
  const claim = finding.claimFix === undefined ? '' : ` (claim change: ${describeChange(finding.claimFix, finding.path)})`;
  const suggestion = finding.suggestion === undefined ? '' : ` (suggested: ${describeChange(finding.suggestion, finding.path)})`;
  const rule = paint(ANSI.dim, `[${displayText(finding.ruleId)}]`);
  return `${paint(ANSI.bold, place)}: ${severity}: ${displayText(`${finding.message}${fix}${claim}${suggestion}`)} ${rule}`;
}

function summaryLine(result: LintResult, paint: (code: string, text: string) => string): string {
  const { errors, warnings, infos, files, suppressed } = result.summary;
  const total = errors + warnings + infos;
  const hidden = suppressed > 0 ? `, ${plural(suppressed, 'suppressed finding')} not shown` : '';
  if (total === 0) return `No findings in ${plural(files, 'file')}${hidden}.`;
  const parts = [plural(errors, 'error'), plural(warnings, 'warning')];
  if (infos > 0) parts.push(plural(infos, 'info'));
  const colour = errors > 0 ? ANSI.red : warnings > 0 ? ANSI.yellow : ANSI.blue;
  return paint(colour, `${plural(total, 'finding')} (${parts.join(', ')}) in ${plural(files, 'file')}${hidden}.`);
}
