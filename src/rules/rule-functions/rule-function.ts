import type { Severity } from '../../findings/finding.js';
import type { RuleDefinition } from '../rule-types.js';
import type { RuleTarget } from '../target.js';
import type { Violation } from '../violation.js';

export interface RuleFunctionContext {
  readonly definition: RuleDefinition;
  readonly severity: Severity;
  /** The standard placeholders ({operation}, {specVersion}, …) merged with the function's own. */
  messageData(extra: Readonly<Record<string, string | number>>): Record<string, string | number>;
}

/** A cross-field rule the declarative form cannot say; its metadata lives in rules/<id>.yaml like any rule. */
export type RuleFunction = (target: RuleTarget, context: RuleFunctionContext) => Violation[];
