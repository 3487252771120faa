import type { Finding } from '../findings/finding.js';
import type { OperationReview, Review, Section } from './review-types.js';

const YES = '✅';
const NO = '❌';

/** The review as GitHub-flavoured markdown: one section per checklist item, race rows as mermaid diagrams. */
export function renderReviewMarkdown(review: Review): string {
  const lines: string[] = [
    `# Reliability review: ${review.server}`,
    '',
    `Manifest \`${review.file}\` · MCP ${review.specVersion} · ${review.replicas} replica${review.replicas === 1 ? '' : 's'} · ${review.operations.length} operations`,
    '',
    `**Verdict: ${review.productionReady ? `${YES} production-ready` : `${NO} not production-ready`}**`,
    '',
    '| operation | method | retry | verdict |',
    '|---|---|---|---|',
    ...review.operations.map((operation) => `| [${operation.name}](#${anchor(operation.name)}) | \`${operation.method}\` | ${operation.retry.classification} | ${operation.verdict.productionReady ? `${YES} ready` : `${NO} ${operation.verdict.refusals.map((refusal) => refusal.condition).join('; ')}`} |`),
  ];
  if (review.otherFindings.length > 0) lines.push('', '## Server and manifest findings', '', ...findingLines(review.otherFindings));
  for (const operation of review.operations) lines.push('', ...operationSection(operation));
  return lines.join('\n') + '\n';
}

function operationSection(operation: OperationReview): string[] {
  const lines = [`## ${operation.name}`, ''];
  if (operation.description !== undefined) lines.push(operation.description, '');
  lines.push(`\`${operation.method}\` · side effect: ${operation.sideEffect} · transports: ${operation.transports.join(', ')}`, '');
  lines.push('### Verdict', '', operation.verdict.productionReady ? `${YES} production-ready` : `${NO} not production-ready:`);
  for (const refusal of operation.verdict.refusals) lines.push(`- **${refusal.condition}**: ${refusal.detail}`);
  lines.push('', '### Cancellation wire', '', '| transport | client signal | server | as required |', '|---|---|---|---|');
  for (const row of operation.cancellationWire) lines.push(`| ${row.transport} | ${cell(row.clientSignal)} | ${cell(row.server)} | ${row.ok ? YES : NO} |`);
  lines.push('', `### Race table (${operation.raceTable.transport}, run on the reference coordinator with this policy)`, '', '| event order | server terminal state | final response | client behaviour | as required |', '|---|---|---|---|---|');
  for (const row of operation.raceTable.rows) lines.push(`| ${row.order} | ${cell(row.terminalState)} | ${cell(row.finalResponse)} | ${cell(row.clientBehaviour)} | ${row.asRequired ? YES : NO} |`);
  for (const row of operation.raceTable.rows) lines.push('', `<details><summary>${row.order}</summary>`, '', '```mermaid', row.mermaid, '```', '', '</details>');
  lines.push('', '### Deadline policy', '', ...checkLines(operation.deadlines));
  lines.push('', '### Retry classification', '', `**${operation.retry.classification}**: ${operation.retry.reason}.`, '', `Automatic retry: ${operation.retry.automatic}; backoff: ${operation.retry.backoff}.`);
  const boundary = operation.idempotencyBoundary;
  lines.push('', '### Idempotency boundary', '');
  if (boundary.inside.length > 0) lines.push(`- inside the atomic commit: ${boundary.inside.join(', ')}`);
  if (boundary.outside.length > 0) lines.push(`- outside it: ${boundary.outside.join(', ')}`);
  for (const note of boundary.notes) lines.push(`- ${note}`);
  lines.push('', '### Flow control', '', ...checkLines(operation.flowControl));
  lines.push('', '### Reconnect plan', '', ...checkLines(operation.reconnect));
  lines.push('', '### Durable tasks', '', ...(operation.tasks === null ? ['Not a task.'] : checkLines(operation.tasks)));
  lines.push('', '### Lint findings', '', ...(operation.findings.length === 0 ? ['None.'] : findingLines(operation.findings)));
  lines.push('', '### Required fixtures', '', operation.fixtures.length === 0 ? 'None apply.' : operation.fixtures.map((id) => `\`${id}\``).join(', '));
  return lines;
}

function checkLines(section: Section): string[] {
  return section.checks.map((check) => `- ${check.ok ? YES : NO} ${check.text}`);
}

function findingLines(findings: readonly Finding[]): string[] {
  return findings.map((finding) => `- ${finding.suppression === undefined ? finding.severity : `suppressed (${finding.suppression.justification})`} \`${finding.ruleId}\` line ${finding.range?.start.line ?? '?'}: ${finding.message}`);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** GitHub's heading anchor: lower case, spaces to hyphens, punctuation other than - and _ dropped. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}
