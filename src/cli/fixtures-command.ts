import { dirname, join, relative } from 'node:path';
import { fixtureSegments } from '../evidence/bundle.js';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import type { Fixture } from '../fixtures/fixture-types.js';
import { toSlashes } from '../workspace/load-settings.js';
import { readManifestInput } from '../api/manifest-input.js';
import { displayText } from '../text/display-text.js';
import { ensureFolder, requirePath, writeOutputFile } from '../workspace/output-files.js';
import { plural } from '../text/plural.js';
import { Progress } from './progress.js';

/** The file a fixture is written to, under the output folder: <operation>/<kind>.json, each name one encoded segment. */
export function fixtureFile(directory: string, fixture: Fixture): string {
  return `${join(directory, ...fixtureSegments(fixture))}.json`;
}

/** Writes fixtures as files, each naming its manifest relative to itself; returns the paths, in order. */
export function writeFixtures(
  fixtures: readonly Fixture[],
  directory: string,
  manifestPath: string,
  onFixture: (index: number, fixture: Fixture) => void = () => {},
): string[] {
  return fixtures.map((fixture, index) => {
    onFixture(index, fixture);
    const file = fixtureFile(directory, fixture);
    ensureFolder(dirname(file));
    const withManifest = { ...fixture, manifest: toSlashes(relative(dirname(file), manifestPath)) };
    const { mcprelyFixture, ...rest } = withManifest;
    writeOutputFile(file, `${JSON.stringify({ mcprelyFixture, ...rest }, null, 2)}\n`, 'a fixture');
    return file;
  });
}

/** `mcprely fixtures <manifest> [-o dir]`: the failure fixtures of every operation, as data files. */
export function runFixtures(path: string, options: { output: string }): number {
  const input = readManifestInput(path);
  if (!input.ok) {
    process.stderr.write(input.report);
    return 2;
  }
  requirePath(options.output, 'the fixtures folder (-o)');
  const fixtures = generateFixtures(input.manifest);
  const progress = new Progress(process.stderr, fixtures.length);
  const files = writeFixtures(fixtures, options.output, path, (index, fixture) => progress.update(index, fixture.id));
  progress.done();
  for (const file of files) process.stdout.write(`${displayText(toSlashes(file))}\n`);
  process.stdout.write(
    `${plural(files.length, 'fixture')} for ${plural(input.manifest.operations.length, 'operation')} written to ${toSlashes(options.output)}\n`,
  );
  return 0;
}
