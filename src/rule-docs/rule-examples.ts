import type { Finding } from '../findings/finding.js';
import { lintFile } from '../lint/lint-file.js';
import type { RuleSet } from '../rules/load-rules.js';
import type { RuleDefinition } from '../rules/rule-types.js';

export interface ExampleResults {
  readonly failing: readonly Finding[];
  readonly passing: readonly Finding[];
}

/** Lints a rule's failing and passing examples with that rule alone on, as its doc page shows them. */
export function runRuleExamples(definition: RuleDefinition, ruleSet: RuleSet): ExampleResults {
  const settings = { ruleSet, severities: new Map([[definition.id, definition.severity]]) };
  const run = (name: string, text: string) => lintFile(`${definition.id}.${name}.yaml`, new TextEncoder().encode(text), settings).findings;
  return { failing: run('failing', definition.examples.failing), passing: run('passing', definition.examples.passing) };
}
