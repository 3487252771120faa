import type { Finding } from '../findings/finding.js';
import { displayText, markdownText } from '../text/display-text.js';
import { SECTION_TITLES, viewOf } from './build-review.js';
import type { ChecklistLine, Mark, OperationReview, OperationSummary, Review, ReviewView, Section } from './review-types.js';
import { plural } from '../text/plural.js';

const MARK: Record<Mark, string> = { ok: '✅', note: 'ℹ️', warn: '⚠️', fail: '❌' };
const YES = MARK.ok;
const NO = MARK.fail;

/** The review as GitHub-flavoured markdown: one section per checklist item, race rows as mermaid diagrams. */
export function renderReviewMarkdown(review: Review | ReviewView): string {
  let text = '';
  for (const chunk of renderReviewMarkdownChunks(review)) text += chunk;
  return text;
}

/** The same text in pieces (the head, then one per operation), for writing a review of 10 000 operations without holding it. */
export function* renderReviewMarkdownChunks(shown: Review | ReviewView): Generator<string> {
  const review = viewOf(shown);
  const { fixtures } = review;
  const head: string[] = [
    `# Reliability review: ${markdownText(review.server)}`,
    '',
    `Manifest \`${review.file.replace(/`/g, "'")}\` · MCP ${review.specVersion} · ${plural(review.replicas, 'replica')} · ` +
      `${plural(review.operations.length, 'operation')} · fixtures: ${fixtures.passed} of ${fixtures.total} passed on the reference implementation`,
    '',
    // A review judges what the manifest declares; only evidence --stdio/--url checks it against a server.
    `**Verdict: ${review.productionReady ? `${YES} production-ready` : `${NO} not production-ready`}** as declared (not checked against a server)`,
    '',
    '| operation | method | retry | verdict |',
    '|---|---|---|---|',
  ];
  // Each element is one line: whatever the manifest put in it (a newline, an escape sequence, a bidi override) stays on it, visibly.
  yield head.map(displayText).join('\n');
  // The table a row at a time: the summaries of 10 000 operations are read, never joined whole.
  for (const operation of review.summaries)
    yield `\n${displayText(
      `| [${operation.name}](#${anchor(operation.name)}) | \`${operation.method}\` | ${operation.retry.classification} | ${verdictCell(operation)} |`,
    )}`;
  const tail: string[] = [];
  for (const refusal of review.refusals) tail.push('', `${NO} **${refusal.condition}**: ${refusal.detail}`);
  if (review.otherFindings.length > 0) tail.push('', '## Server and manifest findings', '', ...findingLines(review.otherFindings));
  if (tail.length > 0) yield `\n${tail.map(displayText).join('\n')}`;
  for (const operation of review.operations) yield `\n\n${operationSection(operation).map(displayText).join('\n')}`;
  yield '\n';
}

function operationSection(operation: OperationReview): string[] {
  const lines = [`## ${operation.name}`, ''];
  if (operation.description !== undefined) lines.push(`> ${markdownText(operation.description)}`, '');
  lines.push(`\`${operation.method}\` · side effect: ${operation.sideEffect} · transports: ${operation.transports.join(', ')}`, '');
  lines.push('### Verdict', '', operation.verdict.productionReady ? `${YES} production-ready` : `${NO} not production-ready:`);
  for (const refusal of operation.verdict.refusals) lines.push(`- **${refusal.condition}**: ${refusal.detail}`);
  lines.push('', '### Cancellation wire', '', '| transport | client signal | server | as required |', '|---|---|---|---|');
  for (const row of operation.cancellationWire)
    lines.push(
      `| ${row.transport} | ${cell(row.clientSignal)} | ${cell(row.server)} | ${MARK[row.mark]}${row.because === undefined ? '' : ` ${cell(row.because)}`} |`,
    );
  for (const table of operation.raceTables) {
    lines.push(
      '',
      `### Race table (${table.transport}, run on the reference coordinator with this policy)`,
      '',
      '| event order | server terminal state | final response | client behaviour | as required |',
      '|---|---|---|---|---|',
    );
    for (const row of table.rows)
      lines.push(
        `| ${row.order} | ${cell(row.terminalState)} | ${cell(row.finalResponse)} | ${cell(row.clientBehaviour)} | ${row.asRequired ? YES : NO} |`,
      );
    for (const row of table.rows)
      lines.push(
        '',
        `<details><summary>${row.order} (${table.transport})</summary>`,
        '',
        '```mermaid',
        ...row.mermaid.split('\n'),
        '```',
        '',
        '</details>',
      );
  }
  const retry = operation.retry;
  const boundary = operation.idempotencyBoundary;
  for (const [key, title] of Object.entries(SECTION_TITLES)) {
    const heading = `### ${title.charAt(0).toUpperCase()}${title.slice(1)}`;
    if (key === 'tasks') {
      lines.push('', heading, '', ...(operation.tasks === null ? ['Not a task.'] : checkLines(operation.tasks)));
      continue;
    }
    lines.push('', heading, '');
    if (key === 'retry') lines.push(`**${retry.classification}**: ${retry.reason}.`, '');
    if (key === 'idempotencyBoundary') {
      if (boundary.inside.length > 0) lines.push(`- inside the atomic commit: ${boundary.inside.join(', ')}`);
      if (boundary.outside.length > 0) lines.push(`- outside it: ${boundary.outside.join(', ')}`);
    }
    lines.push(...checkLines(operation[key as Exclude<keyof typeof SECTION_TITLES, 'tasks'>]));
  }
  lines.push('', '### Lint findings', '', ...(operation.findings.length === 0 ? ['None.'] : findingLines(operation.findings)));
  lines.push('', '### Required fixtures', '');
  if (operation.fixtures.length === 0) lines.push('None apply.');
  else {
    lines.push('| fixture | transport | result |', '|---|---|---|');
    for (const fixture of operation.fixtures)
      lines.push(
        `| \`${fixture.id}\` | ${fixture.transport} | ${fixture.passed ? `${YES} pass` : `${NO} ${cell(fixture.failures.join('; '))}`} |`,
      );
  }
  if (operation.lintOnly.length > 0) {
    lines.push('', 'Lint-only (no fixture can show these, so none passes them):', '');
    for (const { rule, reason } of operation.lintOnly) lines.push(`- \`${rule}\`: lint-only because ${cell(reason)}`);
  }
  return lines;
}

function verdictCell(operation: OperationSummary): string {
  const count = operation.verdict.refusals.length;
  return operation.verdict.productionReady ? `${YES} ready` : `${NO} ${plural(count, 'refusal')}`;
}

function checkLines(section: Section): string[] {
  return section.lines.map((line) => `- ${lineText(line)}`);
}

function lineText(line: ChecklistLine): string {
  return `${MARK[line.mark]} ${line.text}${line.because === undefined ? '' : ` — ${line.because}`}`;
}

function findingLines(findings: readonly Finding[]): string[] {
  return findings.map(
    (finding) =>
      `- ${finding.suppression === undefined ? finding.severity : `suppressed (${finding.suppression.justification})`} ` +
      `\`${finding.ruleId}\` line ${finding.range?.start.line ?? '?'}: ${cell(finding.message)}`,
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** GitHub's heading anchor: lower case, spaces to hyphens, punctuation other than - and _ dropped. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}
