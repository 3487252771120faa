import type { Finding } from '../findings/finding.js';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { type LiveFixtureResult, liveFixtureResults, renderLiveFixture } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { liveFixturesJunit } from '../probe/live-fixtures-junit.js';
import { displayText } from '../text/display-text.js';
import type { VerifyFormat } from '../verify/verify-report.js';
import { probeForDrift } from './drift-command.js';
import { countOutcomes, countsInWords } from '../evidence/live-evidence.js';
import type { WireClaim } from '../live/wire-claims.js';
import type { LiveCallOptions } from './live-options.js';
import { liveCallOptions } from './probe-command.js';
import { writeOutputFile } from '../workspace/output-files.js';

export interface LiveVerifyOptions extends LiveCallOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly format: VerifyFormat;
  readonly output?: string;
}

/** A manifest's fixtures run against the live server it describes (only the command or URL given). */
export async function liveFixturesOf(
  manifest: string,
  options: LiveCallOptions & { readonly stdio?: string; readonly url?: string },
): Promise<
  | { ok: true; report: ProbeReport; results: LiveFixtureResult[]; drift: readonly Finding[]; claims: readonly WireClaim[] }
  | { ok: false; problem: string }
> {
  const run = await probeForDrift({
    manifest,
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
    ...(options.url === undefined ? {} : { url: options.url }),
    ...liveCallOptions(options),
  });
  if (!run.ok) return run;
  return {
    ok: true,
    report: run.report,
    results: liveFixtureResults(generateFixtures(run.manifest), run.report),
    drift: run.findings,
    claims: run.claims,
  };
}

/**
 * `mcprely verify <manifest> --stdio "<cmd>" | --url <endpoint>`: the manifest's fixtures run against the live
 * server, each by the probe check that plays its scenario on the wire; the kinds that cannot be run from
 * outside say why (inconclusive or not observable). Exit 1 when one fails, 2 when the manifest or the probe cannot
 * start, 3 when none was exercised (inconclusive: not a pass).
 */
export async function runLiveVerify(paths: readonly string[], options: LiveVerifyOptions, toolVersion: string): Promise<number> {
  if (paths.length !== 1) {
    process.stderr.write('error: verify --stdio/--url takes one manifest (its fixtures are run against the server)\n');
    return 2;
  }
  const live = await liveFixturesOf(paths[0]!, options);
  if (!live.ok) {
    process.stderr.write(live.problem);
    return 2;
  }
  const { report, results } = live;
  const counts = countOutcomes(results);
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
  if (summary.failed > 0) return 1;
  if (summary.passed === 0) {
    process.stderr.write('inconclusive: no fixture was exercised live (see why for each): nothing was verified on the wire\n');
    return 3;
  }
  return 0;
}
