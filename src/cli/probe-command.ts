import { writeFileSync } from 'node:fs';
import type { LoadedManifest } from '../manifest/load.js';
import { probeAsLintResult, renderProbeText } from '../probe/render-probe.js';
import { runProbe } from '../probe/run-probe.js';
import type { ProbeRevision } from '../probe/connection.js';
import { FORMATTERS } from '../report/formats.js';
import { useColor } from './color.js';
import { readManifestInput } from './manifest-input.js';
import type { OutputSpec } from './output-spec.js';
import { Progress } from './progress.js';

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

/** `mcprely probe`: exit 0 when no check fails, 1 when one does, 2 when the probe cannot start or is misused. */
export async function runProbeCommand(options: ProbeCommandOptions, toolVersion: string): Promise<number> {
  if ((options.stdio === undefined) === (options.url === undefined)) {
    process.stderr.write('error: give exactly one of --stdio "<command>" and --url <endpoint>\n');
    return 2;
  }
  if (options.url !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.url);
    } catch {
      url = undefined;
    }
    if (url === undefined || !['http:', 'https:'].includes(url.protocol)) {
      process.stderr.write(`error: --url ${options.url} is not an http:// or https:// URL\n`);
      return 2;
    }
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
  const progress = new Progress(process.stderr, 7);
  const report = await runProbe({
    target: options.stdio !== undefined ? { stdio: options.stdio } : { url: options.url! },
    ...(manifest === undefined ? {} : { manifest }),
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: options.maxTimeoutMs }),
    allowMutations: options.allowMutations,
    graceMs: options.graceMs,
    maxTimeMs: options.maxTimeMs,
    onCheck: (index, _total, id) => progress.update(index, id),
  });
  progress.done();
  for (const output of options.outputs) {
    let text: string;
    if (output.format === 'stylish') text = renderProbeText(report);
    else if (output.format === 'json') text = `${JSON.stringify(report, null, 2)}\n`;
    else {
      const { result, rules } = probeAsLintResult(report);
      text = FORMATTERS[output.format](result, { toolVersion, rules, color: output.file === undefined && useColor(process.stdout) });
    }
    if (output.file === undefined) process.stdout.write(text);
    else writeFileSync(output.file, text);
  }
  if (!report.startedOk) return 2;
  return report.checks.some((check) => check.status === 'fail') ? 1 : 0;
}
