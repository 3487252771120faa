import { makeFinding, type Finding } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { fileReport } from '../lint/file-report.js';
import { lintResult, type LintResult } from '../lint/lint-result.js';
import type { ProbeReport } from './probe-types.js';
import { PROBE_CHECKS } from './run-probe.js';

/** The probe report as text: each check's status, what it found, and its wire transcript. */
export function renderProbeText(report: ProbeReport): string {
  const lines = [`mcprely probe ${report.target} (${report.transport}, MCP ${report.revision})`];
  if (!report.startedOk) lines.push(`FAIL  the probe could not start: ${report.problem}`);
  for (const observation of report.observations) lines.push(`NOTE  ${observation}`);
  for (const check of report.checks) {
    lines.push(
      '',
      `${check.status.toUpperCase().padEnd(4)}  ${check.id}: ${check.summary}`,
      `      ${check.title} (${check.durationMs} ms)`,
    );
    for (const detail of check.details) lines.push(`      - ${detail}`);
    for (const entry of check.transcript) lines.push(`      t=${String(entry.t).padStart(6)}ms ${entry.direction} ${entry.text}`);
  }
  const counts = { pass: 0, fail: 0, skip: 0 };
  for (const check of report.checks) counts[check.status]++;
  lines.push(
    '',
    `Summary: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped${report.startedOk ? '' : '; the probe could not start'}`,
  );
  if (report.stderr !== undefined)
    lines.push(
      '',
      'The server wrote to stderr (first 16 KiB):',
      ...report.stderr
        .trimEnd()
        .split('\n')
        .slice(0, 20)
        .map((line) => `  | ${line}`),
    );
  return `${lines.join('\n')}\n`;
}

/** Failed checks as findings, so the lint formats (sarif, github, junit, markdown) can carry a probe. */
export function probeAsLintResult(report: ProbeReport): { result: LintResult; rules: RuleDescriptor[] } {
  const finding = (ruleId: string, message: string, fix: string): Finding =>
    makeFinding({ ruleId, severity: 'error', messageId: 'probe', message, file: report.target, fix });
  const findings: Finding[] = report.startedOk
    ? []
    : [
        finding(
          'probe-start',
          `The probe could not start: ${report.problem}`,
          'check the command or URL, and that the server speaks the revision probed',
        ),
      ];
  for (const check of report.checks)
    if (check.status === 'fail')
      findings.push(
        finding(
          `probe-${check.id}`,
          `${check.title}: ${check.summary}`,
          `see the transcript of ${check.id} (mcprely probe --format stylish)`,
        ),
      );
  const rules: RuleDescriptor[] = [
    {
      id: 'probe-start',
      severity: 'error',
      description: "The probe connects and completes the revision's handshake.",
      rationale: 'Nothing else can be checked on a server the probe cannot talk to.',
      fix: 'check the command or URL, and that the server speaks the revision probed',
      tags: ['probe'],
    },
    ...PROBE_CHECKS.map((check) => ({
      id: `probe-${check.id}`,
      severity: 'error' as const,
      description: check.title,
      rationale: check.basis,
      fix: `see the transcript of ${check.id}`,
      tags: ['probe'],
    })),
  ];
  return { result: lintResult([fileReport(report.target, findings)]), rules };
}
