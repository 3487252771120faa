import { atLeast, type Finding, type Severity } from '../findings/finding.js';
import type { FileReport } from './file-report.js';

export interface LintSummary {
  readonly files: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Findings kept out of the counts by x-mcprely-ignore or the baseline. */
  readonly suppressed: number;
  /** Files that could not be read or are not valid manifests. */
  readonly inputErrors: number;
}

export interface LintResult {
  readonly files: readonly FileReport[];
  readonly summary: LintSummary;
}

export function lintResult(files: readonly FileReport[]): LintResult {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let suppressed = 0;
  for (const report of files) {
    for (const finding of report.findings) {
      if (finding.suppression !== undefined) suppressed++;
      else if (finding.severity === 'error') errors++;
      else if (finding.severity === 'warn') warnings++;
      else infos++;
    }
  }
  const inputErrors = files.filter((report) => report.inputError).length;
  return { files, summary: { files: files.length, errors, warnings, infos, suppressed, inputErrors } };
}

export function activeFindings(report: FileReport): Finding[] {
  return report.findings.filter((finding) => finding.suppression === undefined);
}

export interface ExitPolicy {
  /** Findings at or above this severity fail the run. */
  readonly failSeverity: Severity;
  /** More warnings than this fail the run (undefined: no limit). */
  readonly maxWarnings?: number;
}

/** 2 when any file was not a readable, valid manifest; 1 when findings reach the fail severity or exceed --max-warnings; else 0. */
export function exitCodeOf(result: LintResult, policy: ExitPolicy = { failSeverity: 'error' }): 0 | 1 | 2 {
  const { summary } = result;
  if (summary.inputErrors > 0) return 2;
  const counts: Record<Severity, number> = { error: summary.errors, warn: summary.warnings, info: summary.infos };
  const failing = (Object.keys(counts) as Severity[]).some((severity) => counts[severity] > 0 && atLeast(severity, policy.failSeverity));
  if (failing) return 1;
  if (policy.maxWarnings !== undefined && summary.warnings > policy.maxWarnings) return 1;
  return 0;
}
