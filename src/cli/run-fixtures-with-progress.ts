import type { Fixture } from '../fixtures/fixture-types.js';
import type { FixtureRun } from '../simulator/fixture-run.js';
import { runFixture } from '../simulator/run-fixture.js';
import { Progress } from './progress.js';

/**
 * Runs fixtures on the reference implementation one after another, with a counter on a terminal. With
 * `outcomesOnly` the transcripts are dropped as each run ends (a review shows outcomes; memory stays small); given
 * a function, it sees each whole run first (evidence writes its files) and the transcript is dropped after.
 */
export async function runFixturesWithProgress(
  fixtures: readonly Fixture[],
  outcomesOnly: boolean | ((run: FixtureRun) => void) = false,
): Promise<FixtureRun[]> {
  const progress = new Progress(process.stderr, fixtures.length);
  const runs: FixtureRun[] = [];
  for (const [index, fixture] of fixtures.entries()) {
    progress.update(index, fixture.id);
    const run = await runFixture(fixture);
    if (typeof outcomesOnly === 'function') outcomesOnly(run);
    runs.push(outcomesOnly === false ? run : { ...run, transcript: [] });
  }
  progress.done();
  return runs;
}
