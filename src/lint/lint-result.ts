import type { FileReport } from './file-report.js';

export interface LintSummary {
  readonly files: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
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
  for (const report of files) {
    for (const finding of report.findings) {
      if (finding.severity === 'error') errors++;
      else if (finding.severity === 'warn') warnings++;
      else infos++;
    }
  }
  const inputErrors = files.filter((report) => report.inputError).length;
  return { files, summary: { files: files.length, errors, warnings, infos, inputErrors } };
}

/** 2 when any file was not a readable, valid manifest; 1 when there are findings; 0 when clean. */
export function exitCodeOf(result: LintResult): 0 | 1 | 2 {
  if (result.summary.inputErrors > 0) return 2;
  return result.summary.errors + result.summary.warnings + result.summary.infos > 0 ? 1 : 0;
}
