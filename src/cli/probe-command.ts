import type { ProbeRevision } from '../probe/connection.js';
import { renderProbeJunit } from '../probe/probe-junit.js';
import { probeAsLintResult, probeExitCode, renderProbeText } from '../probe/render-probe.js';
import { PROBE_CHECKS, type ProbeOptions, type ProbeUsageError, runProbe } from '../probe/run-probe.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { FORMATTERS } from '../report/formats.js';
import { useColor } from './color.js';
import { readOptionalManifest } from './manifest-input.js';
import type { OutputSpec } from './output-spec.js';
import { probeTarget } from './probe-target.js';
import { Progress } from './progress.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from '../workspace/output-files.js';
import type { LiveCallOptions } from './live-options.js';

/** The live options alone, without the undefined ones (for the probe's exact optional properties). */
export function liveCallOptions(options: LiveCallOptions): LiveCallOptions {
  return {
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: options.maxTimeoutMs }),
    allowMutations: options.allowMutations,
    graceMs: options.graceMs,
    maxTimeMs: options.maxTimeMs,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}

export interface ProbeCommandOptions extends LiveCallOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly manifest?: string;
  readonly specVersion?: ProbeRevision;
  /** Where to write the probe's session as a trace (`--record`). */
  readonly record?: string;
  readonly outputs: readonly OutputSpec[];
}

/**
 * `mcprely probe`: exit 0 when nothing failed and a request in flight was judged, 1 when a check failed, 2 when
 * the probe cannot start (bad command line, nothing listens, not an MCP server) or is asked to call what it must
 * not, 3 when nothing failed but no request in flight could be judged (inconclusive: not a pass).
 */
export async function runProbeCommand(options: ProbeCommandOptions, toolVersion: string): Promise<number> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--stdio', url: '--url' }, options.headers);
  if ('problem' in target) {
    process.stderr.write(`error: ${displayText(target.problem)}\n`);
    return 2;
  }
  const manifest = readOptionalManifest(options.manifest);
  if (manifest === false) return 2;
  const report = await probeWithProgress({
    target,
    ...(manifest === undefined ? {} : { manifest }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...(options.record === undefined ? {} : { record: options.record }),
    ...liveCallOptions(options),
  });
  if ('usage' in report) {
    process.stderr.write(`error: ${displayText(report.usage)}\n`);
    return 2;
  }
  for (const output of options.outputs) {
    let text: string;
    if (output.format === 'stylish') text = renderProbeText(report);
    else if (output.format === 'json') text = `${JSON.stringify(report, null, 2)}\n`;
    else if (output.format === 'junit') text = renderProbeJunit(report);
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
  return probeExitCode(report);
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
