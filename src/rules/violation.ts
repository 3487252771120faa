import type { FixChange, Severity } from '../findings/finding.js';
import type { FieldPlace } from './target.js';

/** What a rule reports before it is placed in the file and turned into a finding. */
export interface Violation {
  readonly messageId: string;
  readonly message: string;
  readonly fix: string;
  readonly severity: Severity;
  readonly place: FieldPlace;
  readonly at: 'key' | 'value';
  readonly data: Readonly<Record<string, string | number>>;
  /** What mcprely can change at the reported field (a layout fix or a claim change, as the rule's fixKind says). */
  readonly autofix?: FixChange;
  /** A change proposed for a person to confirm (its value is theirs to choose). */
  readonly suggestion?: FixChange;
}
