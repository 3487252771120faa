import type { LintResult } from '../lint/lint-result.js';
import type { ReportContext } from './report-context.js';

/** Version of the JSON report's shape (schemas/report.schema.json); bumped on any incompatible change. */
export const JSON_REPORT_VERSION = 1;

/** The machine-readable report: versioned, documented, 1-based positions, suppressed findings marked. */
export function formatJson(result: LintResult, context: Pick<ReportContext, 'toolVersion'>): string {
  const report = {
    version: JSON_REPORT_VERSION,
    tool: { name: 'mcprely', version: context.toolVersion },
    summary: result.summary,
    files: result.files.map((file) => ({ file: file.file, inputError: file.inputError, findings: file.findings })),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
