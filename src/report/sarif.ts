import type { Finding, Severity } from '../findings/finding.js';
import type { LintResult } from '../lint/lint-result.js';
import { relativeUri } from './file-uri.js';
import { ruleDocsUrl, type ReportContext } from './report-context.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warn: 'warning', info: 'note' };

/**
 * SARIF 2.1.0 as GitHub code scanning reads it: every rule with its help text and URI, results with ruleId,
 * ruleIndex, level and region (1-based, UTF-16 columns), suppressed findings marked as suppressed.
 */
export function formatSarif(result: LintResult, context: Pick<ReportContext, 'toolVersion' | 'rules'>): string {
  const rules = context.rules;
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcprely',
            version: context.toolVersion,
            semanticVersion: context.toolVersion,
            informationUri: 'https://github.com/mcprely/mcprely',
            rules: rules.map((rule) => ({
              id: rule.id,
              name: pascalCase(rule.id),
              shortDescription: { text: rule.description },
              fullDescription: { text: rule.rationale },
              help: {
                text: `${rule.rationale}\n\nFix: ${rule.fix}`,
                markdown: `${rule.rationale}\n\n**Fix:** ${rule.fix}${rule.docPage === undefined ? '' : `\n\n[Rule documentation](${ruleDocsUrl(rule.id)})`}`,
              },
              ...(rule.docPage === undefined ? {} : { helpUri: ruleDocsUrl(rule.id) }),
              defaultConfiguration: { level: LEVEL[rule.severity] },
              properties: {
                tags: ['mcp', 'reliability', ...rule.tags],
                precision: 'very-high',
                'problem.severity': rule.severity === 'warn' ? 'warning' : rule.severity === 'info' ? 'recommendation' : 'error',
              },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: result.files.flatMap((file) => file.findings.map((finding) => sarifResult(finding, ruleIndex.get(finding.ruleId)))),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function sarifResult(finding: Finding, index: number | undefined) {
  const region =
    finding.range === undefined
      ? undefined
      : {
          startLine: finding.range.start.line,
          startColumn: finding.range.start.column,
          endLine: finding.range.end.line,
          endColumn: Math.max(
            finding.range.end.column,
            finding.range.start.column + (finding.range.end.line === finding.range.start.line ? 1 : 0),
          ),
        };
  return {
    ruleId: finding.ruleId,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: LEVEL[finding.severity],
    message: { text: finding.fix === undefined ? finding.message : `${finding.message}. ${finding.fix}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: relativeUri(finding.file), uriBaseId: '%SRCROOT%' },
          ...(region === undefined ? {} : { region }),
        },
      },
    ],
    partialFingerprints: { 'mcprelyFinding/v1': `${finding.ruleId}:${finding.path}:${finding.messageId}` },
    ...(finding.suppression === undefined
      ? {}
      : {
          suppressions: [
            { kind: finding.suppression.kind === 'in-source' ? 'inSource' : 'external', justification: finding.suppression.justification },
          ],
        }),
  };
}

function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());
}
