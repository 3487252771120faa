import type { Severity } from '../findings/finding.js';
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
  /** The value lint --fix sets the reported field to, when the rule has a safe fix. */
  readonly autofix?: { readonly set: unknown };
}
