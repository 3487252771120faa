import type { ExampleResults } from './rule-examples.js';
import type { RuleDefinition } from './rule-types.js';

const REVISION_LABEL: Record<string, string> = { both: 'both revisions', lesson: 'reliability lesson', '2025-11-25': '2025-11-25', '2026-07-28': '2026-07-28' };

/** The doc page of a rule (docs/rules/<id>.md, and what `mcprely rules <id>` prints), with what mcprely says about its examples. */
export function renderRuleDoc(rule: RuleDefinition, examples: ExampleResults): string {
  const preset = rule.recommended === false ? 'strict only' : 'recommended';
  const lines = [
    `# ${rule.id}`,
    '',
    `**Area:** ${rule.area} · **Severity:** ${rule.severity} · **Revisions:** ${rule.revisions.join(', ')} · **Preset:** ${preset}`,
    '',
    rule.description,
    '',
    '## Why',
    '',
    rule.rationale,
    '',
    '## What the spec says',
    '',
    ...rule.spec.map((citation) => `- **${REVISION_LABEL[citation.revision]}** — ${citation.source}: ${citation.says}`),
    '',
    '## Fix',
    '',
    rule.fix,
    '',
    '## Failing example',
    '',
    '```yaml',
    rule.examples.failing.trimEnd(),
    '```',
    '',
    'mcprely reports:',
    '',
    '```text',
    ...examples.failing.map((finding) => `${finding.range === undefined ? '' : `${finding.range.start.line}:${finding.range.start.column} `}${finding.severity} ${finding.message}`),
    '```',
    '',
    '## Passing example',
    '',
    '```yaml',
    rule.examples.passing.trimEnd(),
    '```',
    '',
    `mcprely reports ${examples.passing.length === 0 ? 'nothing for this rule' : `${examples.passing.length} finding(s)`}.`,
    '',
  ];
  return lines.join('\n');
}
