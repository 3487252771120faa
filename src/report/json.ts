import type { LintResult } from '../lint/lint-result.js';
import type { ReportContext } from './report-context.js';

/** Version of the JSON report's shape (schemas/report.schema.json); bumped on any incompatible change. */
export const JSON_REPORT_VERSION = 1;

/** The machine-readable report: versioned, documented, 1-based positions, suppressed findings marked. */
export function formatJson(result: LintResult, context: Pick<ReportContext, 'toolVersion'>): string {
  const chunks: string[] = [];
  writeJson(result, context, (chunk) => chunks.push(chunk));
  return chunks.join('');
}

const FILES_MARKER = '\u0000mcprely-files\u0000';
const FILE_BREAK = `\n${' '.repeat(4)}`;

/**
 * The JSON report as `formatJson` returns it, given to `write` one file at a time, so a run with many findings
 * never holds the whole report as one string.
 */
export function writeJson(result: LintResult, context: Pick<ReportContext, 'toolVersion'>, write: (chunk: string) => void): void {
  const report = {
    version: JSON_REPORT_VERSION,
    tool: { name: 'mcprely', version: context.toolVersion },
    summary: result.summary,
    files: FILES_MARKER,
  };
  const [head, tail] = JSON.stringify(report, null, 2).split(JSON.stringify(FILES_MARKER)) as [string, string];
  if (result.files.length === 0) {
    write(`${head}[]${tail}\n`);
    return;
  }
  result.files.forEach((file, index) => {
    const text = JSON.stringify({ file: file.file, inputError: file.inputError, findings: file.findings }, null, 2);
    write(`${index === 0 ? `${head}[\n` : ',\n'}    ${text.replaceAll('\n', FILE_BREAK)}`);
  });
  write(`\n  ]${tail}\n`);
}
