import { BUNDLED_DEFINITIONS } from './bundled-definitions.js';
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
  bundled ??= compileRuleSet(BUNDLED_DEFINITIONS);
  return bundled;
}

/**
 * Compiles definitions already checked against schemas/rule.schema.json: the bundled ones at build time
 * (scripts/compile-schemas.mjs refuses a bad rule file), others through `checkedRuleSet`. No run validates the
 * bundled rules again, so the rule schema's validator is not loaded to lint.
 */
export function compileRuleSet(definitions: readonly RuleDefinition[]): RuleSet {
  const rules = definitions.map((definition) => compileRule(definition, RULE_FUNCTIONS));
  const byId = new Map(rules.map((rule) => [rule.definition.id, rule]));
  return { rules, byId, ids: new Set(byId.keys()) };
}
