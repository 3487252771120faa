import type { LoadedManifest } from '../manifest/load.js';
import type { ProbeRevision } from '../probe/connection.js';
import { probeAsLintResult, renderProbeText } from '../probe/render-probe.js';
import { PROBE_CHECKS, type ProbeOptions, type ProbeUsageError, runProbe } from '../probe/run-probe.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { FORMATTERS } from '../report/formats.js';
import { useColor } from './color.js';
import { readManifestInput } from './manifest-input.js';
import type { OutputSpec } from './output-spec.js';
import { probeTarget } from './probe-target.js';
import { Progress } from './progress.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from './output-files.js';

export interface ProbeCommandOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly manifest?: string;
  readonly operation?: string;
  readonly specVersion?: ProbeRevision;
  readonly allowMutations: boolean;
  readonly arguments?: Record<string, unknown>;
  readonly idleTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  readonly graceMs: number;
  readonly maxTimeMs: number;
  readonly outputs: readonly OutputSpec[];
}

/**
 * `mcprely probe`: exit 0 when every check that ran passed, 1 when one failed or none could run, 2 when the
 * probe cannot start (bad command line, nothing listens, not an MCP server) or is asked to call what it must not.
 */
export async function runProbeCommand(options: ProbeCommandOptions, toolVersion: string): Promise<number> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--stdio', url: '--url' });
  if ('problem' in target) {
    process.stderr.write(`error: ${displayText(target.problem)}\n`);
    return 2;
  }
  let manifest: LoadedManifest | undefined;
  if (options.manifest !== undefined) {
    const input = readManifestInput(options.manifest);
    if (!input.ok) {
      process.stderr.write(input.report);
      return 2;
    }
    manifest = input.manifest;
  }
  const report = await probeWithProgress({
    target,
    ...(manifest === undefined ? {} : { manifest }),
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: options.maxTimeoutMs }),
    allowMutations: options.allowMutations,
    graceMs: options.graceMs,
    maxTimeMs: options.maxTimeMs,
  });
  if ('usage' in report) {
    process.stderr.write(`error: ${displayText(report.usage)}\n`);
    return 2;
  }
  for (const output of options.outputs) {
    let text: string;
    if (output.format === 'stylish') text = renderProbeText(report);
    else if (output.format === 'json') text = `${JSON.stringify(report, null, 2)}\n`;
    else {
      const { result, rules } = probeAsLintResult(report);
      text = FORMATTERS[output.format](result, {
        toolVersion,
        rules,
        color: output.file === undefined && useColor(process.stdout),
        category: 'mcprely-probe',
      });
    }
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  if (!report.startedOk) return 2;
  return report.checks.some((check) => check.status === 'fail') || report.nothingRan !== undefined ? 1 : 0;
}

/** Runs the probe with the check under way shown on standard error (on a terminal). */
export async function probeWithProgress(options: Omit<ProbeOptions, 'onCheck'>): Promise<ProbeReport | ProbeUsageError> {
  const progress = new Progress(process.stderr, PROBE_CHECKS.length);
  try {
    return await runProbe({ ...options, onCheck: (index, _total, id) => progress.update(index, id) });
  } finally {
    progress.done();
  }
}
