import type { CompiledRule } from '../rules/compiled-rule.js';
import { citationLines } from '../rules/rule-help.js';
import type { ExampleResults } from './rule-examples.js';

/** The doc page of a rule (docs/rules/<id>.md, and what `mcprely rules <id>` prints), with what mcprely says about its examples. */
export function renderRuleDoc(rule: CompiledRule, examples: ExampleResults): string {
  const definition = rule.definition;
  const preset = definition.recommended === false ? 'strict only' : 'recommended';
  const lines = [
    `# ${definition.id}`,
    '',
    `**Area:** ${definition.area} · **Severity:** ${definition.severity} · **Revisions:** ${rule.revisions.join(', ')} · **Preset:** ${preset}`,
    '',
    definition.description,
    '',
    '## Why',
    '',
    definition.rationale,
    '',
    '## What it rests on',
    '',
    ...definition.spec.flatMap(citationLines),
    '',
    '## Fix',
    '',
    definition.fix,
    '',
    '## Failing example',
    '',
    '```yaml',
    definition.examples.failing.trimEnd(),
    '```',
    '',
    'mcprely reports:',
    '',
    '```text',
    ...examples.failing.map(
      (finding) =>
        `${finding.range === undefined ? '' : `${finding.range.start.line}:${finding.range.start.column} `}${finding.severity} ${finding.message}`,
    ),
    '```',
    '',
    '## Passing example',
    '',
    '```yaml',
    definition.examples.passing.trimEnd(),
    '```',
    '',
    `mcprely reports ${examples.passing.length === 0 ? 'nothing for this rule' : `${examples.passing.length} finding(s)`}.`,
    '',
  ];
  return lines.join('\n');
}
