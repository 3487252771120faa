import { objectSchema, STRING } from './json-schema.js';
import type { Finding } from '../findings/finding.js';

/** A finding as the tools give it: rule, severity, message, where (1-based line and column), and the fix. */
export function findingSummary(finding: Finding): Record<string, unknown> {
  return {
    ruleId: finding.ruleId,
    severity: finding.severity,
    message: finding.message,
    path: finding.path,
    ...(finding.range === undefined ? {} : { line: finding.range.start.line, column: finding.range.start.column }),
    ...(finding.fix === undefined ? {} : { fix: finding.fix }),
  };
}

/** The output schema of a finding. */
export const FINDING_SCHEMA = objectSchema(
  {
    ruleId: STRING,
    severity: { enum: ['error', 'warn', 'info'] },
    message: STRING,
    path: { ...STRING, description: 'JSON Pointer of the key or value the finding is about' },
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    fix: STRING,
  },
  ['ruleId', 'severity', 'message', 'path'],
);

/** A finding as one line of text: `line:column severity rule message (fix)`. */
export function findingLine(finding: Finding): string {
  const at = finding.range === undefined ? '' : `${finding.range.start.line}:${finding.range.start.column} `;
  return `${at}${finding.severity} ${finding.ruleId}: ${finding.message}${finding.fix === undefined ? '' : ` (fix: ${finding.fix})`}`;
}
