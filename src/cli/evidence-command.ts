import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { buildEvidence } from '../evidence/build-evidence.js';
import { toSlashes } from './load-settings.js';
import { readLintedManifest } from './manifest-input.js';
import { runFixturesWithProgress } from './run-fixtures-with-progress.js';

/** `mcprely evidence <manifest> -o dir`: the evidence bundle. Exit 1 when a fixture fails or the verdict is not production-ready. */
export async function runEvidence(path: string, options: { output: string }): Promise<number> {
  const input = readLintedManifest(path, undefined);
  if (!input.ok) {
    process.stderr.write(input.report);
    return 2;
  }
  const directory = options.output;
  if (existsSync(directory) && readdirSync(directory).length > 0 && !isEarlierBundle(directory)) {
    process.stderr.write(
      `${directory}: error: the folder is not empty and holds no earlier mcprely evidence bundle (index.json); ` +
        'refusing to overwrite it. Fix: Choose an empty or new folder\n',
    );
    return 2;
  }
  const findings = input.findings;
  const runs = await runFixturesWithProgress(generateFixtures(input.manifest));
  // Fixtures sit two or three folders down (fixtures/<operation>/<kind>.json); each names the manifest relative to itself.
  const manifestFromFixture = (depth: number) => toSlashes(relative(resolve(directory, ...Array(depth).fill('x')), resolve(path)));
  const bundle = buildEvidence(input.manifest, findings, runs, manifestFromFixture(2));
  rmSync(directory, { recursive: true, force: true });
  for (const [file, content] of bundle) {
    const target = join(directory, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  const failed = runs.filter((run) => !run.passed).length;
  const index = JSON.parse(bundle.get('index.json')!) as { productionReady: boolean };
  process.stdout.write(
    `Evidence for ${path} written to ${toSlashes(directory)}: ${bundle.size} files, ` +
      `${runs.length} fixtures (${runs.length - failed} passed, ${failed} failed), ` +
      `verdict ${index.productionReady ? 'production-ready' : 'not production-ready'}. Start at ${toSlashes(join(directory, 'index.md'))}\n`,
  );
  return failed > 0 || !index.productionReady ? 1 : 0;
}

function isEarlierBundle(directory: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(directory, 'index.json'), 'utf8')) as { mcprelyEvidence?: unknown }).mcprelyEvidence === 1;
  } catch {
    return false;
  }
}
