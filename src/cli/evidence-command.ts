import { join, relative, resolve } from 'node:path';
import { operationFixtures } from '../fixtures/generate-fixtures.js';
import { writeEvidenceFiles, writeRunFiles } from '../evidence/build-evidence.js';
import { BundleWriter, checkBundleFolder } from '../bundle-writer/bundle-writer.js';
import { toSlashes } from '../workspace/load-settings.js';
import { readLintedManifest } from './manifest-input.js';
import { Progress } from './progress.js';
import { runFixture } from '../simulator/run-fixture.js';
import { outcomeOf, type RunOutcome } from '../simulator/run-outcome.js';
import { displayText } from '../text/display-text.js';
import { countOutcomes, type LiveEvidence } from '../evidence/live-evidence.js';
import type { WireClaim } from '../live/wire-claims.js';
import type { LiveCallOptions } from './live-options.js';
import { liveCallOptions } from './probe-command.js';
import type { Finding } from '../findings/finding.js';
import { type LiveFixtureResult, renderLiveFixture } from '../probe/live-fixtures.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { renderProbeText } from '../probe/render-probe.js';
import { liveFixturesOf } from './live-verify.js';
import { ruleDocLinks } from '../workspace/rule-docs-base.js';
import { plural } from '../text/plural.js';

/** What writing one manifest's evidence bundle came to. */
export interface EvidenceWritten {
  readonly files: number;
  readonly fixtures: number;
  readonly failed: number;
  readonly productionReady: boolean;
  /** The verdict in words, naming its basis. */
  readonly verdict: string;
}

/**
 * Lints `path` (with the configuration: a path, false for none, undefined to look in the working directory),
 * runs its fixtures and writes the evidence bundle to `directory`; or the report of why the manifest cannot be used.
 */
export async function writeEvidence(
  path: string,
  directory: string,
  config?: string | false,
  target?: LiveTarget,
): Promise<{ readonly ok: true; readonly written: EvidenceWritten } | { readonly ok: false; readonly report: string }> {
  const input = await readLintedManifest(path, config);
  if (!input.ok) return input;
  checkBundleFolder(directory);
  let live: LiveEvidence | undefined;
  if (target !== undefined) {
    const run = await liveFixturesOf(path, target);
    if (!run.ok) return { ok: false, report: run.problem };
    live = liveEvidence(run.report, run.drift, run.results, run.claims);
  }
  // Fixtures sit two folders down (fixtures/<operation>/<kind>.json); each names the manifest relative to itself.
  const manifestFromFixture = (depth: number) => toSlashes(relative(resolve(directory, ...Array(depth).fill('x')), resolve(path)));
  // Each file goes to disk as it is made: a run's fixture and transcript as the run ends (then only its outcome
  // is kept), the rest one after another; the fixtures are made an operation at a time. Memory holds the lint
  // findings, the runs' outcomes and one operation's fixtures or review, whatever the number of operations.
  const bundle = BundleWriter.open(directory);
  const runs: RunOutcome[] = [];
  let index: { productionReady: boolean; verdict: string };
  try {
    const progress = new Progress(process.stderr, input.manifest.operations.length);
    for (const [position, operation] of input.manifest.operations.entries()) {
      progress.update(position, operation.spec.name);
      for (const fixture of operationFixtures(input.manifest, operation)) {
        const run = await runFixture(fixture);
        writeRunFiles(bundle, run, manifestFromFixture(2));
        runs.push(outcomeOf(run));
      }
    }
    progress.done();
    writeEvidenceFiles(
      bundle,
      input.manifest,
      input.findings,
      runs,
      live,
      ruleDocLinks(join(directory, 'index.html'), process.cwd()),
      input.lintOnly,
    );
    index = JSON.parse(bundle.get('index.json')!) as typeof index;
    bundle.commit();
  } finally {
    bundle.close();
  }
  const failed = runs.filter((run) => !run.passed).length;
  return {
    ok: true,
    written: { files: bundle.size, fixtures: runs.length, failed, productionReady: index.productionReady, verdict: index.verdict },
  };
}

/** The server a bundle is checked against: a command (stdio) or an endpoint, and how the probe calls it. */
export interface LiveTarget extends LiveCallOptions {
  readonly stdio?: string;
  readonly url?: string;
}

/** A live run as bundle files under live/: the probe report (JSON and text), the drift findings, each live fixture. */
function liveEvidence(
  report: ProbeReport,
  drift: readonly Finding[],
  results: readonly LiveFixtureResult[],
  claims: readonly WireClaim[],
): LiveEvidence {
  const files = new Map<string, string>();
  files.set('live/probe.json', `${JSON.stringify(report, null, 2)}\n`);
  files.set('live/probe.txt', renderProbeText(report));
  files.set('live/drift.json', `${JSON.stringify(drift, null, 2)}\n`);
  files.set('live/claims.json', `${JSON.stringify(claims, null, 2)}\n`);
  files.set('live/fixtures.txt', results.map(renderLiveFixture).join('\n'));
  return {
    target: report.target,
    transport: report.transport,
    revision: report.revision,
    date: new Date().toISOString().slice(0, 10),
    checks: report.checks.map(({ id, status, summary }) => ({ id, status, summary })),
    claims,
    drift,
    fixtures: countOutcomes(results),
    files,
  };
}

/** `mcprely evidence <manifest> -o dir`: the evidence bundle. Exit 1 when a fixture fails or the verdict is not production-ready. */
export async function runEvidence(path: string, options: { output: string } & LiveTarget): Promise<number> {
  const directory = options.output;
  const target =
    options.stdio === undefined && options.url === undefined
      ? undefined
      : {
          ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
          ...(options.url === undefined ? {} : { url: options.url }),
          ...liveCallOptions(options),
        };
  const outcome = await writeEvidence(path, directory, undefined, target);
  if (!outcome.ok) {
    process.stderr.write(outcome.report);
    return 2;
  }
  const { files, fixtures, failed, productionReady, verdict } = outcome.written;
  process.stdout.write(
    `Evidence for ${displayText(path)} written to ${displayText(toSlashes(directory))}: ${plural(files, 'file')}, ` +
      `${plural(fixtures, 'fixture')} (${fixtures - failed} passed, ${failed} failed), ` +
      `verdict: ${displayText(verdict)}. Open ${displayText(toSlashes(join(directory, 'index.html')))} or start at index.md\n`,
  );
  return failed > 0 || !productionReady ? 1 : 0;
}
