import type { Severity } from '../findings/finding.js';
import type { SpecVersion } from '../manifest/types.js';

/** A rule as written in rules/<id>.yaml (see schemas/rule.schema.json). */
export interface RuleDefinition {
  readonly id: string;
  readonly area: RuleArea;
  readonly severity: Severity;
  readonly recommended?: boolean;
  readonly description: string;
  readonly rationale: string;
  readonly revisions: readonly SpecVersion[];
  readonly spec: readonly SpecCitation[];
  readonly given: 'operation' | 'server' | 'manifest';
  readonly when?: readonly Condition[];
  readonly then?: Assertion | readonly Assertion[];
  readonly checks?: readonly CheckDefinition[];
  readonly function?: string;
  readonly message: string;
  readonly fix: string;
  readonly examples: { readonly failing: string; readonly passing: string };
}

export const RULE_AREAS = ['manifest', 'cancellation', 'deadlines', 'progress', 'retry', 'idempotency', 'flow-control', 'recovery', 'tasks'] as const;
export type RuleArea = (typeof RULE_AREAS)[number];

export interface SpecCitation {
  readonly revision: SpecVersion | 'both' | 'lesson';
  readonly source: string;
  readonly says: string;
}

export interface CheckDefinition {
  readonly id?: string;
  readonly revisions?: readonly SpecVersion[];
  readonly when?: readonly Condition[];
  readonly then: Assertion | readonly Assertion[];
  readonly message?: string;
  readonly fix?: string;
  readonly severity?: Severity;
}

export type Condition = { readonly all: readonly Condition[] } | { readonly any: readonly Condition[] } | { readonly not: Condition } | FieldCondition;

export interface FieldCondition {
  readonly field: string;
  readonly equals?: unknown;
  readonly notEquals?: unknown;
  readonly in?: readonly unknown[];
  readonly notIn?: readonly unknown[];
  readonly contains?: unknown;
  readonly defined?: boolean;
  readonly truthy?: boolean;
  readonly greaterThan?: number;
  readonly lessThan?: number;
}

export type FunctionName = 'defined' | 'truthy' | 'falsy' | 'enum' | 'pattern' | 'compare' | 'schema';

export interface Assertion {
  readonly field: string;
  readonly at?: 'key' | 'value';
  readonly function: FunctionName;
  readonly functionOptions?: Readonly<Record<string, unknown>>;
  readonly message?: string;
}
