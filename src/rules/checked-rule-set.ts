import { validateRule } from '../generated/validate-rule.js';
import { compileRuleSet, type RuleSet } from './load-rules.js';
import type { RuleDefinition } from './rule-types.js';

/** Validates each definition against schemas/rule.schema.json, then compiles them; a bad rule is an error that names it. */
export function checkedRuleSet(definitions: readonly unknown[]): RuleSet {
  for (const definition of definitions) {
    if (validateRule(definition)) continue;
    const id = (definition as { id?: unknown }).id;
    const reasons = (validateRule.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
    throw new Error(`rule ${String(id)} does not match schemas/rule.schema.json: ${reasons.join('; ')}`);
  }
  return compileRuleSet(definitions as readonly RuleDefinition[]);
}
