import type { Finding, Severity } from '../findings/finding.js';
import { activeFindings, type LintResult } from '../lint/lint-result.js';
import { hexDigest } from '../text/sha.js';

/**
 * GitLab's Code Quality severities for mcprely's: an error is `major` (it fails the lint run but is not a
 * security hole: `critical` and `blocker` are left to tools that find those), a warning `minor`, an info `info`.
 */
export const GITLAB_SEVERITY: Readonly<Record<Severity, 'info' | 'minor' | 'major'>> = { error: 'major', warn: 'minor', info: 'info' };

/** One entry of a GitLab Code Quality report, exactly the fields GitLab requires. */
export interface GitlabIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

/**
 * GitLab Code Quality JSON (`artifacts:reports:codequality`): one issue per unsuppressed finding. The
 * fingerprint is a SHA-256 of the rule id, file, JSON Pointer and message, so it does not change when lines move
 * and GitLab can tell new findings from fixed ones; a finding repeated word for word at one place is numbered.
 */
export function formatGitlab(result: LintResult): string {
  const issues: GitlabIssue[] = [];
  const seen = new Map<string, number>();
  for (const report of result.files) {
    for (const finding of activeFindings(report)) {
      const key = fingerprintOf(finding);
      const count = seen.get(key) ?? 0;
      seen.set(key, count + 1);
      issues.push({
        description: finding.fix === undefined ? finding.message : `${finding.message}. Fix: ${finding.fix}`,
        check_name: finding.ruleId,
        fingerprint: count === 0 ? key : fingerprintOf(finding, count),
        severity: GITLAB_SEVERITY[finding.severity],
        location: { path: finding.file, lines: { begin: finding.range?.start.line ?? 1 } },
      });
    }
  }
  return `${JSON.stringify(issues, null, 2)}\n`;
}

function fingerprintOf(finding: Finding, occurrence = 0): string {
  const parts = [finding.ruleId, finding.file, finding.path, finding.message, ...(occurrence === 0 ? [] : [String(occurrence)])];
  return hexDigest('sha256', parts.join('\u0000'));
}
