import type { Severity } from '../findings/finding.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import { DRIFT_RULES, type driftFindings } from '../probe/drift.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { FORMATTERS } from '../report/formats.js';
import { displayText } from '../text/display-text.js';
import { useColor } from './color.js';
import { writeOutputFile } from '../workspace/output-files.js';
import type { OutputSpec } from './output-spec.js';
import { plural } from '../text/plural.js';
import { STATUS_LABELS } from '../probe/probe-types.js';
import { claimName, exercised, type WireClaim } from '../live/wire-claims.js';
import { putsCallInFlight } from '../probe/probe-check-catalog.js';
import { type DriftRun, type ProbeForDriftOptions, probeForDrift } from '../api/probe-for-drift.js';
import { probeReporter } from './probe-lines.js';

export interface DriftOptions extends Omit<ProbeForDriftOptions, 'onProgress' | 'onProbeEvent'> {
  readonly failSeverity: Severity;
  readonly outputs: readonly OutputSpec[];
  /** No line on stderr as each probe check starts and ends (`--quiet`). */
  readonly quiet?: boolean;
}

/**
 * `mcprely drift <manifest> --stdio "<cmd>" | --url <endpoint>`: where the manifest and the live server disagree,
 * as findings at the manifest's lines in the lint formats. Exit 1 on drift at or above the fail severity, 2 when
 * the manifest cannot be used or the probe cannot start.
 */
export async function runDrift(options: DriftOptions, toolVersion: string): Promise<number> {
  const { done, ...told } = probeReporter(options.quiet === true);
  let run: DriftRun;
  try {
    run = await probeForDrift({ ...options, ...told });
  } finally {
    done();
  }
  if (!run.ok) {
    process.stderr.write(run.problem);
    return 2;
  }
  const result = lintResult([fileReport(run.manifest.file, run.findings)]);
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    let text = FORMATTERS[output.format](result, {
      toolVersion,
      rules: DRIFT_RULES,
      color,
      category: 'mcprely-drift',
      sourceRoot: process.cwd(),
    });
    if (output.format === 'stylish') text += wireSummary(run.report, run.findings, run.claims);
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  const code = exitCodeOf(result, { failSeverity: options.failSeverity });
  // Nothing contradicted is not a pass when nothing was compared: no claim was seen on a request in flight.
  if (code === 0 && !exercised(run.claims, putsCallInFlight)) {
    const tool = run.report.plan?.tool;
    const called = tool === null || tool === undefined ? 'no long-running tool was called' : `the probe called ${displayText(tool)}`;
    process.stderr.write(
      `inconclusive: no claim of the manifest was seen on a request in flight (${called}); ` +
        'name a long-running tool the manifest describes with --operation, or see why each claim was not seen above\n',
    );
    return 3;
  }
  return code;
}

/** Under the findings: each wire finding's transcript excerpt, then what the probe checked and what it could not. */
function wireSummary(report: ProbeReport, findings: ReturnType<typeof driftFindings>, claims: readonly WireClaim[]): string {
  const lines: string[] = [];
  for (const finding of findings) {
    const transcript = finding.data['excerpt'];
    if (typeof transcript !== 'string' || transcript === '') continue;
    const place = finding.range === undefined ? '' : `:${finding.range.start.line}`;
    lines.push(
      '',
      `${displayText(finding.file)}${place} [${finding.ruleId}], seen in the probe check ${displayText(String(finding.data['check']))}:`,
    );
    for (const line of transcript.split('\n')) lines.push(`    ${displayText(line)}`);
  }
  lines.push(
    '',
    `Probed ${displayText(report.target)} (${report.transport}, ${report.revision}) calling ${displayText(report.plan?.tool ?? 'no tool')}; ` +
      `${plural(report.tools?.length ?? 0, 'tool')} listed.`,
  );
  for (const check of report.checks) lines.push(`  ${STATUS_LABELS[check.status]}  ${check.id}: ${displayText(check.summary)}`);
  if (claims.length > 0) {
    lines.push('', 'Claims of the manifest on the wire (a claim not seen stands as declared):');
    for (const claim of claims)
      lines.push(
        `  ${claim.status.toUpperCase().replace('-', ' ')}  ${displayText(`${claimName(claim)}: ${claim.value}`)}` +
          ` — ${displayText(claim.why)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
