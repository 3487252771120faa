import type { Severity } from './finding.js';

/**
 * What a report format needs to know about a rule that can report: lint rules, the input rules below and the
 * probe's checks all describe themselves this way, so formatters never see a rule's definition.
 */
export interface RuleDescriptor {
  readonly id: string;
  readonly severity: Severity;
  readonly description: string;
  readonly rationale: string;
  readonly fix: string;
  /** Area and revisions for a lint rule; `input` or `probe` for the others. */
  readonly tags: readonly string[];
  /** The rule's page under docs/rules/ in this repository, when it has one. */
  readonly docPage?: string;
  /** The rule's full help in markdown (what its page says, without the title), when it is longer than rationale and fix. */
  readonly helpMarkdown?: string;
}
