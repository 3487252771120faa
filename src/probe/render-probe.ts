import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { fileReport } from '../lint/file-report.js';
import { type LintResult, lintResult } from '../lint/lint-result.js';
import type { ProbeReport } from './probe-types.js';
import { FRAMING_CHECKS, PROBE_CHECKS } from './run-probe.js';
import { displayText } from '../text/display-text.js';

/** The probe report as text: what it called and why, each check's status, what it found, and its wire transcript. */
export function renderProbeText(report: ProbeReport): string {
  const asked =
    report.requestedRevision !== undefined && report.requestedRevision !== report.revision ? `, asked for ${report.requestedRevision}` : '';
  const lines = [`mcprely probe ${report.target} (${report.transport}, MCP ${report.revision}${asked})`];
  if (!report.startedOk) lines.push(`FAIL  the probe could not start: ${report.problem}`);
  if (report.plan !== undefined)
    lines.push(
      `PLAN  ${report.plan.tool === null ? `no long-running tool: ${report.plan.why}` : `calls ${report.plan.tool}: ${report.plan.why}`}` +
        (report.plan.mutation === null ? '' : `; the mutation ${report.plan.mutation} with one idempotency key`),
    );
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
  const ending = !report.startedOk ? '; the probe could not start' : report.nothingRan !== undefined ? `; ${report.nothingRan}` : '';
  lines.push('', `Summary: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped${ending}`);
  if (report.stderr !== undefined) {
    const shown = report.stderr.trimEnd().split('\n').slice(0, 20);
    lines.push('', 'The server wrote to stderr (first 16 KiB):', ...shown.map((line) => `  | ${line}`));
  }
  // One element, one line: what the server sent (names, errors, stderr) cannot break out of it or colour the screen.
  return `${lines.map(displayText).join('\n')}\n`;
}

/** Failed checks as findings, with what the probe called as a note, so the lint formats (sarif, github, junit, markdown) can carry a probe. */
export function probeAsLintResult(report: ProbeReport): { result: LintResult; rules: RuleDescriptor[] } {
  const finding = (ruleId: string, severity: Severity, message: string, fix: string): Finding =>
    makeFinding({ ruleId, severity, messageId: 'probe', message, file: report.target, fix });
  const findings: Finding[] = [];
  if (!report.startedOk)
    findings.push(
      finding(
        'probe-start',
        'error',
        `The probe could not start: ${report.problem}`,
        'check the command or URL, and that the server speaks the revision probed',
      ),
    );
  if (report.plan !== undefined) {
    const called =
      report.plan.tool === null ? `called no long-running tool: ${report.plan.why}` : `called ${report.plan.tool}: ${report.plan.why}`;
    findings.push(finding('probe-plan', 'info', `The probe ${called}`, 'name another tool with --operation'));
  }
  for (const check of report.checks)
    if (check.status === 'fail')
      findings.push(
        finding(
          `probe-${check.id}`,
          'error',
          `${check.title}: ${check.summary}`,
          `see the transcript of ${check.id} (mcprely probe --format stylish)`,
        ),
      );
  if (report.nothingRan !== undefined)
    findings.push(
      finding(
        'probe-nothing-ran',
        'error',
        `Not a pass: ${report.nothingRan}`,
        'name a long-running, read-only tool with --operation and --arguments',
      ),
    );
  const checks = [FRAMING_CHECKS.revision, FRAMING_CHECKS.tools, ...PROBE_CHECKS, FRAMING_CHECKS.wire];
  const rules: RuleDescriptor[] = [
    {
      id: 'probe-start',
      severity: 'error',
      description: "The probe connects and completes the revision's handshake.",
      rationale: 'Nothing else can be checked on a server the probe cannot talk to.',
      fix: 'check the command or URL, and that the server speaks the revision probed',
      tags: ['probe'],
    },
    {
      id: 'probe-plan',
      severity: 'info',
      description: 'What the probe called, and why it may call it.',
      rationale:
        'The probe calls only tools known not to change state (by the manifest or by their annotations) unless --allow-mutations is given.',
      fix: 'name another tool with --operation',
      tags: ['probe'],
    },
    {
      id: 'probe-nothing-ran',
      severity: 'error',
      description: 'At least one check ran.',
      rationale: 'A run in which every check was skipped checked nothing and is not a pass.',
      fix: 'name a long-running, read-only tool with --operation and --arguments',
      tags: ['probe'],
    },
    ...checks.map((check) => ({
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
