import type { Finding } from '../findings/finding.js';
import { fileReport } from '../lint/file-report.js';
import { lintResult } from '../lint/lint-result.js';
import { formatStylish } from '../report/stylish.js';

/** Findings that stop a command (an unusable manifest, configuration or fixture), one line each, as stylish prints them. */
export function errorReport(findings: readonly Finding[]): string {
  const files = [...new Set(findings.map((finding) => finding.file))];
  return formatStylish(
    lintResult(
      files.map((file) =>
        fileReport(
          file,
          findings.filter((finding) => finding.file === file),
        ),
      ),
    ),
    { color: false },
  );
}
