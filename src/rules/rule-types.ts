import type { RuleVerification } from '../findings/rule-verification.js';
import type { FixChange, Severity } from '../findings/finding.js';
import type { FactId } from '../spec/revision-facts.js';

/** A rule as written in rules/<id>.yaml (see schemas/rule.schema.json). */
export interface RuleDefinition {
  readonly id: string;
  readonly area: RuleArea;
  readonly severity: Severity;
  readonly recommended?: boolean;
  readonly description: string;
  readonly rationale: string;
  readonly spec: readonly Citation[];
  readonly given: 'operation' | 'server' | 'manifest';
  readonly when?: readonly Condition[];
  readonly then?: Assertion | readonly Assertion[];
  readonly checks?: readonly CheckDefinition[];
  readonly function?: string;
  readonly message: string;
  readonly fix: string;
  /** A fix mcprely can make, of the kind `fixKind` says. */
  readonly autofix?: FixChange;
  /**
   * What the rule's autofixes change: `claim` (the default) a value that says what the server or its clients
   * do (applied only with --fix-type claim); `layout` the text alone, every claim's meaning kept (--fix).
   */
  readonly fixKind?: FixKind;
  /** A fix whose value a person chooses: proposed in the reports, never applied by lint --fix. */
  readonly suggestion?: FixChange;
  readonly examples: { readonly failing: string; readonly passing: string };
  /** Why no fixture can show what the rule reports (review and evidence say so instead of a pass). */
  readonly verification?: RuleVerification;
}

/** What a configuration's severities need of a rule: its id and its own severity, and whether the recommended preset has it on. */
export type RuleHead = Pick<RuleDefinition, 'id' | 'severity' | 'recommended'>;

export const FIX_KINDS = ['layout', 'claim'] as const;
export type FixKind = (typeof FIX_KINDS)[number];

export const RULE_AREAS = [
  'manifest',
  'cancellation',
  'deadlines',
  'progress',
  'retry',
  'idempotency',
  'flow-control',
  'recovery',
  'tasks',
] as const;
export type RuleArea = (typeof RULE_AREAS)[number];

/**
 * What a rule rests on: a fact of the specification (its words, strength and page per revision come from
 * src/spec/revision-facts.ts), or a section of the reliability lesson or of the article, named in words.
 */
export type Citation =
  | { readonly fact: FactId }
  | { readonly lesson: string; readonly says: string }
  | { readonly article: string; readonly says: string };

export interface CheckDefinition {
  readonly id?: string;
  /** The revision fact the check enforces; its words and strength fill {requirement} and {strength}. */
  readonly basis?: FactId;
  readonly when?: readonly Condition[];
  readonly then: Assertion | readonly Assertion[];
  readonly message?: string;
  readonly fix?: string;
  readonly autofix?: FixChange;
  readonly suggestion?: FixChange;
  readonly severity?: Severity;
}

export type Condition =
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition }
  | FactCondition
  | FieldCondition;

/** Holds when the manifest's revision gives the fact this value. */
export interface FactCondition {
  readonly fact: FactId;
  readonly equals?: unknown;
  readonly notEquals?: unknown;
  readonly in?: readonly unknown[];
}

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
  /** The field the finding points at, when the asserted one is only the evidence (default: the asserted field). */
  readonly report?: string;
  readonly at?: 'key' | 'value';
  readonly function: FunctionName;
  readonly functionOptions?: Readonly<Record<string, unknown>>;
  readonly message?: string;
  /** This assertion's own fix (its reported field may differ from its check's other assertions'). */
  readonly autofix?: FixChange;
  readonly suggestion?: FixChange;
}
