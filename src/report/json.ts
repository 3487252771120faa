import type { LintResult } from '../lint/lint-result.js';

export const JSON_REPORT_VERSION = 1;

/** The machine-readable report: versioned, stable key order, 1-based positions. */
export function formatJson(result: LintResult, toolVersion: string): string {
  const report = {
    version: JSON_REPORT_VERSION,
    tool: { name: 'mcprely', version: toolVersion },
    summary: result.summary,
    files: result.files.map((file) => ({
      file: file.file,
      inputError: file.inputError,
      findings: file.findings,
    })),
  };
  return JSON.stringify(report, null, 2) + '\n';
}
