import { join, relative, resolve } from 'node:path';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildEvidence } from '../evidence/build-evidence.js';
import { checkBundleFolder, writeBundle } from './bundle-writer.js';
import { toSlashes } from './load-settings.js';
import { readLintedManifest } from './manifest-input.js';
import { runFixturesWithProgress } from './run-fixtures-with-progress.js';
import { displayText } from '../text/display-text.js';

/** `mcprely evidence <manifest> -o dir`: the evidence bundle. Exit 1 when a fixture fails or the verdict is not production-ready. */
export async function runEvidence(path: string, options: { output: string }): Promise<number> {
  const input = readLintedManifest(path, undefined);
  if (!input.ok) {
    process.stderr.write(input.report);
    return 2;
  }
  const directory = options.output;
  checkBundleFolder(directory);
  const findings = input.findings;
  const runs = await runFixturesWithProgress(generateFixtures(input.manifest));
  // Fixtures sit two folders down (fixtures/<operation>/<kind>.json); each names the manifest relative to itself.
  const manifestFromFixture = (depth: number) => toSlashes(relative(resolve(directory, ...Array(depth).fill('x')), resolve(path)));
  const bundle = buildEvidence(input.manifest, findings, runs, manifestFromFixture(2));
  writeBundle(directory, bundle);
  const failed = runs.filter((run) => !run.passed).length;
  const index = JSON.parse(bundle.get('index.json')!) as { productionReady: boolean };
  process.stdout.write(
    `Evidence for ${displayText(path)} written to ${displayText(toSlashes(directory))}: ${bundle.size} files, ` +
      `${runs.length} fixtures (${runs.length - failed} passed, ${failed} failed), ` +
      `verdict ${index.productionReady ? 'production-ready' : 'not production-ready'}. Start at ${displayText(toSlashes(join(directory, 'index.md')))}\n`,
  );
  return failed > 0 || !index.productionReady ? 1 : 0;
}
