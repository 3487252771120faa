import { describeChange, type Finding } from '../findings/finding.js';

/**
 * A finding's claim change in words, for the formats that show a finding as one text (github, junit): empty
 * when it has none. A claim change is not a fix of the manifest: the server has to be made to do what it says.
 */
export function claimChangeText(finding: Finding): string {
  if (finding.claimFix === undefined) return '';
  return (
    `Claim change: ${describeChange(finding.claimFix, finding.path)} — the manifest would claim it; make the server do it ` +
    '(mcprely lint --fix --fix-type claim writes it).'
  );
}
