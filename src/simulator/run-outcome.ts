import type { Fixture } from '../fixtures/fixture-types.js';
import type { FixtureRun } from './fixture-run.js';
import { describeExpectation } from './render-transcript.js';

/**
 * What a review and an evidence index keep of a fixture's run once its files are written: which fixture, whether
 * it passed, and each failed expectation in words. A few hundred bytes where the run held its whole fixture.
 */
export interface RunOutcome {
  readonly fixture: Pick<Fixture, 'id' | 'operation' | 'kind' | 'transport'>;
  readonly passed: boolean;
  /** What a failing fixture observed, one sentence per failed expectation. */
  readonly failures: readonly string[];
}

export function outcomeOf(run: FixtureRun): RunOutcome {
  const { id, operation, kind, transport } = run.fixture;
  return {
    fixture: { id, operation, kind, transport },
    passed: run.passed,
    failures: run.results
      .filter((result) => !result.passed)
      .map((result) => `${describeExpectation(result.expectation)}: ${result.detail}`),
  };
}
