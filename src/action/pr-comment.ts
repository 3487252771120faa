import type { LintResult } from '../lint/lint-result.js';
import { code, FINDING_TABLE_HEAD, findingCounts, findingRows } from '../report/markdown.js';
import type { ReportContext } from '../report/report-context.js';
import { plural } from '../text/plural.js';
import { markdownText } from '../text/display-text.js';

/** GitHub refuses an issue comment longer than this many characters. */
export const MAX_COMMENT_CHARACTERS = 65_536;

/** Where the comment phase writes the link to the evidence artifact (or to the run), once it is known. */
export const ARTIFACT_PLACEHOLDER = '<!-- mcprely:artifact -->';
/** The longest line the placeholder may become; kept free in the budget. */
const ARTIFACT_LINE_BUDGET = 600;

/** The hidden first line that marks the one comment of a manifest set, so later pushes update it. */
export function commentMarker(slug: string): string {
  return `<!-- mcprely:comment set=${slug} -->`;
}

/** One manifest's evidence bundle, as the comment and the summary show it. */
export interface EvidenceLine {
  readonly manifest: string;
  readonly productionReady: boolean;
  readonly fixtures: number;
  readonly failed: number;
}

export interface ReportInput {
  readonly name: string;
  readonly result: LintResult;
  readonly context: Pick<ReportContext, 'rules' | 'ruleDocs'>;
  readonly evidence: readonly EvidenceLine[];
  /** What fails the job, in words ("findings at error or above"). */
  readonly failsOn: string;
  readonly failed: boolean;
  readonly toolVersion: string;
}

/**
 * The report of a manifest set in markdown, never longer than `limit` characters: the verdict, the evidence
 * verdicts, then the findings table; when the table does not fit, the rows that fit and a notice of how many
 * are left out and where they all are. `head` goes first (the comment's marker), `tail` last.
 */
export function renderReport(input: ReportInput, limit: number, options: { head?: string; artifactLine?: string } = {}): string {
  const { result } = input;
  const status = input.failed ? '❌' : '✅';
  const top = [
    ...(options.head === undefined ? [] : [options.head]),
    `### ${status} mcprely · ${code(input.name)}: ${findingCounts(result)}`,
    '',
    `${input.failed ? 'This fails the check' : 'This passes the check'} (it fails on ${input.failsOn}).` +
      (result.summary.suppressed > 0 ? ` ${plural(result.summary.suppressed, 'suppressed finding')} not shown.` : ''),
  ];
  if (input.evidence.length > 0) {
    const shown = input.evidence.slice(0, 50);
    top.push('', '| Manifest | Review verdict | Fixtures |', '|---|---|---|');
    for (const line of shown)
      top.push(
        `| ${code(line.manifest)} | ${line.productionReady ? '✅ production-ready' : '❌ not production-ready'} | ` +
          `${line.fixtures - line.failed} of ${line.fixtures} passed |`,
      );
    if (input.evidence.length > shown.length)
      top.push('', `…and ${plural(input.evidence.length - shown.length, 'more manifest', 'more manifests')}, in the evidence artifact.`);
  }
  const bottom = [
    '',
    options.artifactLine ?? ARTIFACT_PLACEHOLDER,
    '',
    `<sub>mcprely ${markdownText(input.toolVersion)} · updated on every push</sub>`,
    '',
  ];
  const rows = findingRows(result, input.context);
  const fixed = `${top.join('\n')}\n${bottom.join('\n')}`.length + ARTIFACT_LINE_BUDGET;
  const lines = [...top];
  if (rows.length > 0) {
    lines.push('', ...FINDING_TABLE_HEAD);
    let used = fixed + FINDING_TABLE_HEAD.join('\n').length + 2;
    const notice = (left: number) =>
      `\n**${plural(left, 'more finding')} not shown**: this report is cut to GitHub's ${MAX_COMMENT_CHARACTERS.toLocaleString('en')}-character limit. ` +
      'Every finding is in the job summary, the annotations, code scanning and the artifact.';
    const reserve = notice(rows.length).length + 1;
    let shown = 0;
    for (const row of rows) {
      const remainingAfter = rows.length - shown - 1;
      if (used + row.length + 1 + (remainingAfter > 0 ? reserve : 0) > limit) break;
      lines.push(row);
      used += row.length + 1;
      shown++;
    }
    if (shown < rows.length) lines.push(notice(rows.length - shown));
  }
  lines.push(...bottom);
  return lines.join('\n');
}

/** Puts the artifact line in place of its placeholder, and holds the limit whatever the line's length. */
export function withArtifactLine(body: string, line: string, limit = MAX_COMMENT_CHARACTERS): string {
  const filled = body.replace(ARTIFACT_PLACEHOLDER, line.slice(0, ARTIFACT_LINE_BUDGET));
  return filled.length <= limit ? filled : filled.slice(0, limit);
}
