import type { Fixture } from '../fixtures/fixture-types.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { runFixture } from '../simulator/run-fixture.js';
import { Progress } from './progress.js';

/** Runs fixtures on the reference implementation one after another, with a counter on a terminal. */
export async function runFixturesWithProgress(fixtures: readonly Fixture[]): Promise<FixtureRun[]> {
  const progress = new Progress(process.stderr, fixtures.length);
  const runs: FixtureRun[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    progress.update(index, fixture.id);
    runs.push(await runFixture(fixture));
  }
  progress.done();
  return runs;
}
