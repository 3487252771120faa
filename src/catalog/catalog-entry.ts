import type { Severity } from '../findings/finding.js';
import type { CheckStatus } from '../live/outcome.js';

/** The kinds of check a user sees, in the order `mcprely rules` lists them. */
export const CATALOG_KINDS = ['lint-rule', 'input-rule', 'drift-rule', 'session-judge', 'probe-check', 'client-scenario'] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

/** Who a check holds to its word: the manifest (and the files given), the server, or the client. */
export type CatalogParty = 'manifest' | 'server' | 'client';

/**
 * One check of any kind, in the shape they share: its id (unique across kinds: `mcprely rules <id>` finds it), what
 * it says, whom it binds, what it rests on (a fact of the specification or a section of the lesson, in words), the
 * severity of its failures — or, for a client scenario, the outcomes it can end with — and its page.
 */
export interface CatalogEntry {
  readonly kind: CatalogKind;
  readonly id: string;
  readonly description: string;
  readonly party: CatalogParty;
  readonly basis: string;
  /** The severity of a failure (absent where a check ends in an outcome, not a finding: a client scenario). */
  readonly severity?: Severity;
  /** The outcomes a probe check or a client scenario can end with. */
  readonly outcomes?: readonly CheckStatus[];
  /** The page, docs/rules/<id>.md, as `mcprely rules <id>` prints it (rendered on demand: a lint rule runs its examples). */
  readonly page: () => string;
  /** A lint rule's area (its section of `mcprely rules`). */
  readonly area?: string;
}
