import { fact } from '../spec/revision-facts.js';
import { SPEC_VERSIONS } from '../spec/revisions.js';
import { ARTICLE, LESSON, specPageUrl } from '../spec/sources.js';
import type { CompiledRule } from './compiled-rule.js';
import type { Citation } from './rule-types.js';

/**
 * A rule's full help in markdown, as SARIF's `help.markdown` carries it: what its page says (description,
 * why, what it rests on, fix and both examples) without the title and without running the examples.
 */
export function ruleHelpMarkdown(rule: CompiledRule): string {
  const definition = rule.definition;
  return [
    definition.description,
    '',
    `**Why.** ${definition.rationale}`,
    '',
    '**What it rests on.**',
    '',
    ...definition.spec.flatMap(citationLines),
    '',
    `**Fix.** ${definition.fix}`,
    '',
    'Failing example:',
    '',
    '```yaml',
    definition.examples.failing.trimEnd(),
    '```',
    '',
    'Passing example:',
    '',
    '```yaml',
    definition.examples.passing.trimEnd(),
    '```',
  ].join('\n');
}

/** A fact is quoted from each revision's public page with its strength; the lesson and the article by section, in words. */
export function citationLines(citation: Citation): string[] {
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
