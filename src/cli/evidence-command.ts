import { join } from 'node:path';
import { type EvidenceOutcome, evidence } from '../api/evidence.js';
import { liveCallOptions } from '../api/live-call-options.js';
import type { LiveServer } from '../api/live-fixtures-of.js';
import { toSlashes } from '../workspace/load-settings.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { probeReporter } from './probe-lines.js';

/** `mcprely evidence <manifest> -o dir`: the evidence bundle. Exit 1 when a fixture fails or the verdict is not production-ready. */
export async function runEvidence(path: string, options: { output: string; quiet?: boolean } & LiveServer): Promise<number> {
  const directory = options.output;
  const target =
    options.stdio === undefined && options.url === undefined
      ? undefined
      : {
          ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
          ...(options.url === undefined ? {} : { url: options.url }),
          ...liveCallOptions(options),
        };
  const { done, ...told } = probeReporter(options.quiet === true);
  let outcome: EvidenceOutcome;
  try {
    outcome = await evidence({
      manifest: path,
      output: directory,
      ...(target === undefined ? {} : { server: target }),
      ...told,
    });
  } finally {
    done();
  }
  if (!outcome.ok) {
    process.stderr.write(outcome.problem);
    return 2;
  }
  const { files, fixtures, failed, verdict } = outcome.written;
  process.stdout.write(
    `Evidence for ${displayText(path)} written to ${displayText(toSlashes(directory))}: ${plural(files, 'file')}, ` +
      `${plural(fixtures, 'fixture')} (${fixtures - failed} passed, ${failed} failed), ` +
      `verdict: ${displayText(verdict)}. Open ${displayText(toSlashes(join(directory, 'index.html')))} or start at index.md\n`,
  );
  return outcome.exitCode;
}
