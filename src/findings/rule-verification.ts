import type { Finding } from './finding.js';

/** How a message names a field the manifest leaves unset (its `{value}`). */
export const UNSET_VALUE = 'not set';

/**
 * How `verify` checks what a rule reports, where no fixture can: `lintOnly`, the reason no fixture on the reference
 * implementation shows any of the rule's findings; `whenUnset`, the reason none shows a finding about a field the
 * manifest leaves unset (the defect is the missing claim, and what the server then does is not the manifest's to
 * say), while a value the manifest does set still fails a fixture.
 */
export interface RuleVerification {
  readonly lintOnly?: string;
  readonly whenUnset?: string;
}

/** Rule id → how it is verified, for the rules that declare it. */
export type RuleVerifications = ReadonlyMap<string, RuleVerification>;

/** Why no fixture can show this finding, if none can: what review and evidence show instead of a pass. */
export function lintOnlyReasonOf(finding: Pick<Finding, 'ruleId' | 'data'>, verifications: RuleVerifications): string | undefined {
  const verification = verifications.get(finding.ruleId);
  if (verification === undefined) return undefined;
  if (verification.lintOnly !== undefined) return verification.lintOnly;
  if (verification.whenUnset !== undefined && finding.data['value'] === UNSET_VALUE) return verification.whenUnset;
  return undefined;
}

/** The verifications a rule set declares. */
export function verificationsOf(
  rules: readonly { readonly definition: { readonly id: string; readonly verification?: RuleVerification } }[],
): RuleVerifications {
  return new Map(
    rules.flatMap((rule) =>
      rule.definition.verification === undefined ? [] : [[rule.definition.id, rule.definition.verification] as const],
    ),
  );
}
