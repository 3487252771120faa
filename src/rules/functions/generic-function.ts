import { UNSET_VALUE } from '../../findings/rule-verification.js';
import type { RuleTarget } from '../target.js';

/** Why an assertion failed, for the message: what was expected and, for comparisons, the other value. */
export interface Failure {
  readonly expected?: string;
  readonly other?: unknown;
}

/** An assertion with its options already compiled: `undefined` means the value passes. */
export type CompiledCheck = (value: unknown, target: RuleTarget) => Failure | undefined;

/**
 * A generic function knows nothing of MCP; rules wire a field to it. Its options were validated against
 * schemas/rule.schema.json when the rule was loaded; `compile` prepares them once (regexes, fields, schemas).
 */
export interface GenericFunction {
  readonly name: string;
  compile(options: Readonly<Record<string, unknown>>): CompiledCheck;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return UNSET_VALUE;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
