import { renderLiveFixture } from '../probe/live-fixtures.js';
import { liveFixturesJunit } from '../probe/live-fixtures-junit.js';
import { displayText } from '../text/display-text.js';
import type { VerifyFormat } from '../verify/verify-report.js';
import { countsInWords } from '../evidence/live-evidence.js';
import { type LiveCallOptions, liveCallOptions } from '../api/live-call-options.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { verify } from '../api/verify.js';
import { probeReporter } from './probe-lines.js';

export interface LiveVerifyOptions extends LiveCallOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly format: VerifyFormat;
  readonly output?: string;
  /** No line on stderr as each probe check starts and ends (`--quiet`). */
  readonly quiet?: boolean;
}

/**
 * `mcprely verify <manifest> --stdio "<cmd>" | --url <endpoint>`: the manifest's fixtures run against the live
 * server, each by the probe check that plays its scenario on the wire; the kinds that cannot be run from
 * outside say why (inconclusive or not observable). Exit 1 when one fails, 2 when the manifest or the probe cannot
 * start, 3 when none was exercised (inconclusive: not a pass).
 */
export async function runLiveVerify(paths: readonly string[], options: LiveVerifyOptions, toolVersion: string): Promise<number> {
  const { stdio, url, format: _format, output: _output, quiet, ...call } = options;
  const server = { ...(stdio === undefined ? {} : { stdio }), ...(url === undefined ? {} : { url }), ...liveCallOptions(call) };
  const { done, ...told } = probeReporter(quiet === true);
  let live: Awaited<ReturnType<typeof verify>>;
  try {
    live = await verify({ paths, server, ...told });
  } finally {
    done();
  }
  if (!live.ok) {
    process.stderr.write(live.problem);
    return 2;
  }
  if (live.on !== 'live') throw new Error('verify with a server runs against it');
  const { report, results, counts } = live;
  const summary = {
    fixtures: results.length,
    passed: counts.pass,
    failed: counts.fail,
    inconclusive: counts.inconclusive,
    notObservable: counts['not-observable'],
  };
  let text: string;
  if (options.format === 'json') {
    const target = { target: report.target, transport: report.transport, revision: report.revision, tool: report.plan?.tool ?? null };
    text = `${JSON.stringify({ version: 1, tool: { name: 'mcprely', version: toolVersion }, live: target, summary, fixtures: results }, null, 2)}\n`;
  } else if (options.format === 'junit') text = liveFixturesJunit(paths[0]!, results);
  else {
    text =
      results.map(renderLiveFixture).join('\n') +
      `\nLive: ${countsInWords(counts)} — ${displayText(report.target)} over ${report.transport}, ` +
      `MCP ${report.revision}, calling ${displayText(report.plan?.tool ?? 'no long-running tool')}\n`;
  }
  if (options.output === undefined) process.stdout.write(text);
  else writeOutputFile(options.output, text, 'the verify report');
  if (live.exitCode === 3)
    process.stderr.write('inconclusive: no fixture was exercised live (see why for each): nothing was verified on the wire\n');
  return live.exitCode;
}
