import type { Finding } from '../findings/finding.js';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { type LiveFixtureResult, liveFixtureResults, renderLiveFixture } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { escapeXml } from '../report/junit.js';
import { displayText } from '../text/display-text.js';
import type { VerifyFormat } from '../verify/verify-report.js';
import { probeForDrift } from './drift-command.js';
import { writeOutputFile } from './output-files.js';

export interface LiveVerifyOptions {
  readonly stdio?: string;
  readonly url?: string;
  readonly allowMutations: boolean;
  readonly format: VerifyFormat;
  readonly output?: string;
}

/** A manifest's fixtures run against the live server it describes (only the command or URL given). */
export async function liveFixturesOf(
  manifest: string,
  options: Pick<LiveVerifyOptions, 'stdio' | 'url' | 'allowMutations'>,
): Promise<{ ok: true; report: ProbeReport; results: LiveFixtureResult[]; drift: readonly Finding[] } | { ok: false; problem: string }> {
  const run = await probeForDrift({
    manifest,
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
    ...(options.url === undefined ? {} : { url: options.url }),
    allowMutations: options.allowMutations,
    graceMs: 1000,
    maxTimeMs: 55_000,
  });
  if (!run.ok) return run;
  return {
    ok: true,
    report: run.report,
    results: liveFixtureResults(generateFixtures(run.manifest), run.report),
    drift: run.findings,
  };
}

/**
 * `mcprely verify <manifest> --stdio "<cmd>" | --url <endpoint>`: the manifest's fixtures run against the live
 * server, each by the probe check that plays its scenario on the wire; the kinds that cannot be run from
 * outside say why. Exit 1 when one fails or none could run, 2 when the manifest or the probe cannot start.
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
  const count = (status: LiveFixtureResult['status']) => results.filter((result) => result.status === status).length;
  const summary = { fixtures: results.length, passed: count('pass'), failed: count('fail'), notRun: count('not run') };
  let text: string;
  if (options.format === 'json') {
    const target = { target: report.target, transport: report.transport, revision: report.revision, tool: report.plan?.tool ?? null };
    text = `${JSON.stringify({ version: 1, tool: { name: 'mcprely', version: toolVersion }, live: target, summary, fixtures: results }, null, 2)}\n`;
  } else if (options.format === 'junit') text = liveJunit(paths[0]!, results, summary);
  else {
    text =
      results.map(renderLiveFixture).join('\n') +
      `\nLive: ${summary.passed} passed, ${summary.failed} failed, ${summary.notRun} not run — ${displayText(report.target)} over ${report.transport}, ` +
      `MCP ${report.revision}, calling ${displayText(report.plan?.tool ?? 'no long-running tool')}\n`;
  }
  if (options.output === undefined) process.stdout.write(text);
  else writeOutputFile(options.output, text, 'the verify report');
  if (summary.failed > 0) return 1;
  if (summary.passed === 0) {
    process.stderr.write('no fixture could run live (see why for each): nothing was verified on the wire\n');
    return 1;
  }
  return 0;
}

function liveJunit(
  manifest: string,
  results: readonly LiveFixtureResult[],
  summary: { fixtures: number; failed: number; notRun: number },
): string {
  const cases = results.map((result) => {
    const name = escapeXml(`${result.id} [${result.transport}, live]`);
    const body =
      result.status === 'fail'
        ? `\n      <failure type="live" message="${escapeXml(result.summary)}">${escapeXml(result.summary)}</failure>`
        : result.status === 'not run'
          ? `\n      <skipped message="${escapeXml(result.summary)}"/>`
          : '';
    const output = `<system-out>${escapeXml(renderLiveFixture(result))}</system-out>`;
    return `    <testcase classname="${escapeXml(manifest)}" name="${name}">${body}\n      ${output}\n    </testcase>`;
  });
  const counts = `tests="${summary.fixtures}" failures="${summary.failed}" errors="0" skipped="${summary.notRun}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcprely verify (live)" ${counts}>\n` +
    `  <testsuite name="${escapeXml(manifest)}" ${counts}>\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`
  );
}
