import bundledDefinitions from '../generated/rules.js';
import { validateRule } from '../generated/validators.js';
import { compileRule } from './compile-rule.js';
import type { CompiledRule } from './compiled-rule.js';
import { RULE_FUNCTIONS } from './rule-functions/index.js';
import type { RuleDefinition } from './rule-types.js';

/** Rules by id, in the order of their files; each validated and compiled once per process. */
export interface RuleSet {
  readonly rules: readonly CompiledRule[];
  readonly byId: ReadonlyMap<string, CompiledRule>;
  readonly ids: ReadonlySet<string>;
}

let bundled: RuleSet | undefined;

/** The rules shipped in rules/*.yaml (bundled at build time). */
export function bundledRules(): RuleSet {
  bundled ??= compileRuleSet(bundledDefinitions);
  return bundled;
}

/** Validates each definition against schemas/rule.schema.json and compiles it; a bad rule is a build error, named. */
export function compileRuleSet(definitions: readonly unknown[]): RuleSet {
  const rules = definitions.map((definition) => {
    if (!validateRule(definition)) {
      const id = (definition as { id?: unknown }).id;
      const reasons = (validateRule.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
      throw new Error(`rule ${String(id)} does not match schemas/rule.schema.json: ${reasons.join('; ')}`);
    }
    return compileRule(definition as RuleDefinition, RULE_FUNCTIONS);
  });
  const byId = new Map(rules.map((rule) => [rule.definition.id, rule]));
  return { rules, byId, ids: new Set(byId.keys()) };
}
