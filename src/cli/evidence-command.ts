import { join, relative, resolve } from 'node:path';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildEvidence } from '../evidence/build-evidence.js';
import { checkBundleFolder, writeBundle } from './bundle-writer.js';
import { toSlashes } from './load-settings.js';
import { readLintedManifest } from './manifest-input.js';
import { runFixturesWithProgress } from './run-fixtures-with-progress.js';
import { displayText } from '../text/display-text.js';

/** What writing one manifest's evidence bundle came to. */
export interface EvidenceWritten {
  readonly files: number;
  readonly fixtures: number;
  readonly failed: number;
  readonly productionReady: boolean;
}

/**
 * Lints `path` (with the configuration: a path, false for none, undefined to look in the working directory),
 * runs its fixtures and writes the evidence bundle to `directory`; or the report of why the manifest cannot be used.
 */
export async function writeEvidence(
  path: string,
  directory: string,
  config?: string | false,
): Promise<{ readonly ok: true; readonly written: EvidenceWritten } | { readonly ok: false; readonly report: string }> {
  const input = readLintedManifest(path, config);
  if (!input.ok) return input;
  checkBundleFolder(directory);
  const runs = await runFixturesWithProgress(generateFixtures(input.manifest));
  // Fixtures sit two folders down (fixtures/<operation>/<kind>.json); each names the manifest relative to itself.
  const manifestFromFixture = (depth: number) => toSlashes(relative(resolve(directory, ...Array(depth).fill('x')), resolve(path)));
  const bundle = buildEvidence(input.manifest, input.findings, runs, manifestFromFixture(2));
  writeBundle(directory, bundle);
  const index = JSON.parse(bundle.get('index.json')!) as { productionReady: boolean };
  const failed = runs.filter((run) => !run.passed).length;
  return { ok: true, written: { files: bundle.size, fixtures: runs.length, failed, productionReady: index.productionReady } };
}

/** `mcprely evidence <manifest> -o dir`: the evidence bundle. Exit 1 when a fixture fails or the verdict is not production-ready. */
export async function runEvidence(path: string, options: { output: string }): Promise<number> {
  const directory = options.output;
  const outcome = await writeEvidence(path, directory);
  if (!outcome.ok) {
    process.stderr.write(outcome.report);
    return 2;
  }
  const { files, fixtures, failed, productionReady } = outcome.written;
  process.stdout.write(
    `Evidence for ${displayText(path)} written to ${displayText(toSlashes(directory))}: ${files} files, ` +
      `${fixtures} fixtures (${fixtures - failed} passed, ${failed} failed), ` +
      `verdict ${productionReady ? 'production-ready' : 'not production-ready'}. Start at ${displayText(toSlashes(join(directory, 'index.md')))}\n`,
  );
  return failed > 0 || !productionReady ? 1 : 0;
}
