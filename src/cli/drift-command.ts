import type { Severity } from '../findings/finding.js';
import { fileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { ProbeRevision } from '../probe/connection.js';
import { DRIFT_RULES, driftFindings } from '../probe/drift.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { FORMATTERS } from '../report/formats.js';
import { displayText } from '../text/display-text.js';
import { useColor } from './color.js';
import { readManifestInput } from './manifest-input.js';
import { writeOutputFile } from '../workspace/output-files.js';
import type { OutputSpec } from './output-spec.js';
import { probeTarget } from './probe-target.js';
import { probeWithProgress } from './probe-command.js';
import { plural } from '../text/plural.js';
import { STATUS_LABELS } from '../probe/probe-types.js';
import { claimName, exercised, type WireClaim, wireClaims } from '../live/wire-claims.js';
import type { LiveCallOptions } from './live-options.js';
import { liveCallOptions } from './probe-command.js';

export interface DriftOptions extends LiveCallOptions {
  readonly manifest: string;
  readonly stdio?: string;
  readonly url?: string;
  readonly specVersion?: ProbeRevision;
  readonly failSeverity: Severity;
  readonly outputs: readonly OutputSpec[];
}

/** A probe run with a manifest, and the drift it found; or why it could not run (exit 2). */
export type DriftRun =
  | {
      readonly ok: true;
      readonly manifest: LoadedManifest;
      readonly report: ProbeReport;
      readonly findings: ReturnType<typeof driftFindings>;
      /** Each claim the probe can see, and how it fared. */
      readonly claims: readonly WireClaim[];
    }
  | { readonly ok: false; readonly problem: string };

/** Probes the server the manifest describes (only the command or URL given) and compares the two. */
export async function probeForDrift(options: Omit<DriftOptions, 'outputs' | 'failSeverity'>): Promise<DriftRun> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--stdio', url: '--url' }, options.headers);
  if ('problem' in target) return { ok: false, problem: `error: ${displayText(target.problem)}\n` };
  const input = readManifestInput(options.manifest);
  if (!input.ok) return { ok: false, problem: input.report };
  const report = await probeWithProgress({
    target,
    manifest: input.manifest,
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...liveCallOptions(options),
  });
  if ('usage' in report) return { ok: false, problem: `error: ${displayText(report.usage)}\n` };
  if (!report.startedOk)
    return { ok: false, problem: `error: the probe could not start: ${displayText(report.problem ?? 'unknown reason')}\n` };
  const findings = driftFindings(input.manifest, report);
  return { ok: true, manifest: input.manifest, report, findings, claims: wireClaims(input.manifest, report, findings) };
}

/**
 * `mcprely drift <manifest> --stdio "<cmd>" | --url <endpoint>`: where the manifest and the live server disagree,
 * as findings at the manifest's lines in the lint formats. Exit 1 on drift at or above the fail severity, 2 when
 * the manifest cannot be used or the probe cannot start.
 */
export async function runDrift(options: DriftOptions, toolVersion: string): Promise<number> {
  const run = await probeForDrift(options);
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
  if (code === 0 && !exercised(run.claims)) {
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
