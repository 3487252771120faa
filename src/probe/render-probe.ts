import { makeFinding, type Finding, type Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { fileReport } from '../lint/file-report.js';
import { type LintResult, lintResult } from '../lint/lint-result.js';
import { type CheckStatus, type ProbeReport, STATUS_LABELS, STATUS_WORDS } from './probe-types.js';
import { PROBE_CHECK_DECLARATIONS } from './probe-check-catalog.js';
import { displayText } from '../text/display-text.js';
import { judgementLines, SESSION_RULES } from '../judges/session-rules.js';
import { stallSummary } from './stall.js';

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
    lines.push('', `${STATUS_LABELS[check.status]}  ${check.id}: ${check.summary}`, `      ${check.title} (${check.durationMs} ms)`);
    for (const detail of check.details) lines.push(`      - ${detail}`);
    if (check.fix !== undefined) lines.push(`      Fix: ${check.fix}`);
    for (const entry of check.transcript) lines.push(`      t=${String(entry.t).padStart(6)}ms ${entry.direction} ${entry.text}`);
  }
  if (report.session !== undefined)
    lines.push(
      '',
      `The session (${report.session.messages} messages the judges read), judged as mcprely proxy and audit judge one ` +
        `(the server's judges; grace ${report.session.graceMs} ms, as audit --grace ${report.session.graceMs} of a --record trace):`,
      ...judgementLines(report.session.judgements),
    );
  // A tool that never answered leads the summary: it is what a host meets first, whatever the checks counted.
  if (report.stall === undefined) lines.push('', `Summary: ${probeSummary(report)}`);
  else lines.push('', `Summary: ${stallSummary(report.stall)}`, `         ${probeSummary(report)}`);
  if (report.stderr !== undefined) {
    const shown = report.stderr.trimEnd().split('\n').slice(0, 20);
    lines.push('', 'The server wrote to stderr (first 16 KiB):', ...shown.map((line) => `  | ${line}`));
  }
  // One element, one line: what the server sent (names, errors, stderr) cannot break out of it or colour the screen.
  return `${lines.map(displayText).join('\n')}\n`;
}

/**
 * The outcome of a probe in one line: each status counted, and what the exit code says — failed (1), could not
 * start (2), inconclusive (3: nothing failed, but no request in flight was judged), or passed (0).
 */
export function probeSummary(report: ProbeReport): string {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, inconclusive: 0, 'not-observable': 0 };
  for (const check of report.checks) counts[check.status]++;
  const judgesFailed = report.session?.judgements.filter((judgement) => judgement.status === 'fail').length ?? 0;
  const ending = !report.startedOk
    ? '; the probe could not start'
    : counts.fail > 0 || judgesFailed > 0
      ? judgesFailed > 0
        ? `; ${judgesFailed} of the session's judges failed`
        : ''
      : report.inconclusive !== undefined
        ? `; inconclusive, not a pass: ${report.inconclusive}`
        : '';
  const shown = (Object.keys(counts) as CheckStatus[]).map((status) => `${counts[status]} ${STATUS_WORDS[status]}`);
  return `${shown.join(', ')}${ending}`;
}

/** The exit code of a live run: 2 could not start, 1 a check failed, 3 inconclusive (nothing failed, nothing in flight judged), else 0. */
export function probeExitCode(report: ProbeReport): 0 | 1 | 2 | 3 {
  if (!report.startedOk) return 2;
  if (report.checks.some((check) => check.status === 'fail')) return 1;
  if (report.session?.judgements.some((judgement) => judgement.status === 'fail') === true) return 1;
  return report.inconclusive === undefined ? 0 : 3;
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
          `${check.fix ?? ''} (the transcript: mcprely probe --format stylish)`.trim(),
        ),
      );
    else if (check.status !== 'pass')
      findings.push(
        finding(
          `probe-${check.id}`,
          'info',
          `${capitalised(STATUS_WORDS[check.status])}: ${check.title}: ${check.summary}`,
          check.status === 'inconclusive' ? 'the summary names what would let the check play' : 'the summary names what would show it',
        ),
      );
  // The session's judges, as proxy and audit report them: one finding per failed case, under the judge's own rule.
  for (const judgement of report.session?.judgements ?? []) {
    const rule = SESSION_RULES.find((candidate) => candidate.id === judgement.judge);
    for (const one of judgement.cases)
      if (one.status === 'fail')
        findings.push(
          finding(judgement.judge, rule?.severity ?? 'error', `${one.message} (session message ${one.lines[0] ?? '?'})`, rule?.fix ?? ''),
        );
  }
  if (report.inconclusive !== undefined && !report.checks.some((check) => check.status === 'fail'))
    findings.push(
      finding(
        'probe-inconclusive',
        'warn',
        `Inconclusive, not a pass: ${report.inconclusive}`,
        'name a long-running, read-only tool with --operation and --arguments that make it run for a few seconds',
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
      id: 'probe-inconclusive',
      severity: 'warn',
      description: 'At least one request in flight was judged.',
      rationale: 'A run in which no request in flight could pass or fail checked nothing the probe exists for: it is not a pass.',
      fix: 'name a long-running, read-only tool with --operation and --arguments that make it run for a few seconds',
      tags: ['probe'],
    },
    ...PROBE_CHECK_DECLARATIONS.map((check) => ({
      id: `probe-${check.id}`,
      severity: 'error' as const,
      description: check.title,
      rationale: check.basis,
      fix: check.fix,
      tags: ['probe'],
    })),
    ...SESSION_RULES.filter((rule) => report.session?.judgements.some((judgement) => judgement.judge === rule.id) === true),
  ];
  return { result: lintResult([fileReport(report.target, findings)]), rules };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
