import { fact } from '../spec/revision-facts.js';
import { SPEC_VERSIONS } from '../spec/revisions.js';
import { ARTICLE, LESSON, specPageUrl } from '../spec/sources.js';
import type { CompiledRule } from '../rules/compiled-rule.js';
import type { ExampleResults } from './rule-examples.js';
import type { Citation } from '../rules/rule-types.js';

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

/** A fact is quoted from each revision's public page with its strength; the lesson and the article by section, in words. */
function citationLines(citation: Citation): string[] {
  if ('fact' in citation) {
    return SPEC_VERSIONS.map((revision) => {
      const stated = fact(revision, citation.fact);
      const page = stated.page.replace(/^https:\/\/github\.com\//, '');
      const strength = stated.strength === 'defines' ? 'states' : stated.strength;
      return `- **MCP ${revision}** ([${page}](${specPageUrl(revision, stated.page)})) — ${strength}: ${stated.says}`;
    });
  }
  if ('lesson' in citation)
    return [`- **Reliability lesson** — [${LESSON.title}](${LESSON.url}) (${LESSON.by}), section “${citation.lesson}”: ${citation.says}`];
  return [
    `- **Article** — “${ARTICLE.title}” (${ARTICLE.by}, [${ARTICLE.url.replace(/^https:\/\//, '')}](${ARTICLE.url})), ` +
      `section “${citation.article}”: ${citation.says}`,
  ];
}
