import type { ProbeRevision } from '../probe/connection.js';
import { renderProbeJunit } from '../probe/probe-junit.js';
import { probeAsLintResult, renderProbeText } from '../probe/render-probe.js';
import { FORMATTERS } from '../report/formats.js';
import { useColor } from './color.js';
import type { OutputSpec } from './output-spec.js';
import { writeOutputFile } from '../workspace/output-files.js';
import type { LiveCallOptions } from '../api/live-call-options.js';
import { probe } from '../api/probe.js';
import { probeReporter } from './probe-lines.js';

export interface ProbeCommandOptions extends LiveCallOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly manifest?: string;
  readonly specVersion?: ProbeRevision;
  /** Where to write the probe's session as a trace (`--record`). */
  readonly record?: string;
  readonly outputs: readonly OutputSpec[];
  /** No line on stderr as each check starts and ends (`--quiet`). */
  readonly quiet?: boolean;
}

/**
 * `mcprely probe`: exit 0 when nothing failed and a request in flight was judged, 1 when a check failed, 2 when
 * the probe cannot start (bad command line, nothing listens, not an MCP server) or is asked to call what it must
 * not, 3 when nothing failed but no request in flight could be judged (inconclusive: not a pass).
 */
export async function runProbeCommand(options: ProbeCommandOptions, toolVersion: string): Promise<number> {
  const { outputs, quiet, ...probeOptions } = options;
  const { done, ...told } = probeReporter(quiet === true);
  let outcome: Awaited<ReturnType<typeof probe>>;
  try {
    outcome = await probe({ ...probeOptions, ...told });
  } finally {
    done();
  }
  if (!outcome.ok) {
    process.stderr.write(outcome.problem);
    return 2;
  }
  const { report } = outcome;
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
  return outcome.exitCode;
}
