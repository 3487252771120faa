import { INPUT_RULES } from '../findings/input-rules.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import type { CompiledRule } from './compiled-rule.js';
import type { RuleSet } from './load-rules.js';
import { ruleHelpMarkdown } from './rule-help.js';

/** What the report formats know of a lint rule: its words, its area and revisions, and its page. */
export function describeRule(rule: CompiledRule): RuleDescriptor {
  const { id, severity, description, rationale, fix, area } = rule.definition;
  return {
    id,
    severity,
    description,
    rationale,
    fix,
    tags: [area, `revisions:${rule.revisions.join(',')}`],
    docPage: `docs/rules/${id}.md`,
    helpMarkdown: ruleHelpMarkdown(rule),
  };
}

/** Every rule a lint report can name: the input rules, then the rule set's. */
export function reportableRules(ruleSet: RuleSet): RuleDescriptor[] {
  return [...INPUT_RULES, ...ruleSet.rules.map(describeRule)];
}
