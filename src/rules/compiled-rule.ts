import type { Severity } from '../findings/finding.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { RuleDefinition } from './rule-types.js';
import type { RuleTarget } from './target.js';
import type { Violation } from './violation.js';

/** A rule ready to run: its definition (metadata for docs and reports) and one function over a target. */
export interface CompiledRule {
  readonly definition: RuleDefinition;
  /** The revisions the rule applies to, derived from the revision facts its conditions name. */
  readonly revisions: readonly SpecVersion[];
  /** Runs on a target of `definition.given`; `severity` is the configured one for this file. */
  run(target: RuleTarget, severity: Severity): Violation[];
  appliesTo(specVersion: SpecVersion): boolean;
}
