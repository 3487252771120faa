import { writeJunit } from '../report/junit-writer.js';
import type { TestRun } from '../report/test-suite.js';
import { type LiveFixtureResult, renderLiveFixture } from './live-fixtures.js';
import { STATUS_WORDS } from './probe-types.js';

/** JUnit XML of a manifest's fixtures judged live (`liveFixturesTestRun`). */
export function liveFixturesJunit(manifest: string, results: readonly LiveFixtureResult[]): string {
  return writeJunit(liveFixturesTestRun(manifest, results));
}

/**
 * A manifest's fixtures judged live as test cases, one suite named by the manifest: a case per fixture with its
 * transcript as output, a failure only for a failed fixture, inconclusive and not observable ones skipped with why.
 */
export function liveFixturesTestRun(manifest: string, results: readonly LiveFixtureResult[]): TestRun {
  const cases = results.map((result) => {
    const identity = { classname: manifest, name: `${result.id} [${result.transport}, live]`, output: renderLiveFixture(result) };
    if (result.status === 'pass') return { ...identity, status: 'pass' as const };
    if (result.status === 'fail')
      return { ...identity, status: 'fail' as const, type: 'live', message: result.summary, details: result.summary };
    return { ...identity, status: 'skipped' as const, message: `${STATUS_WORDS[result.status]}: ${result.summary}` };
  });
  return { name: 'mcprely verify (live)', suites: [{ name: manifest, cases }], countsSkipped: true, emptyCase: 'open-and-close' };
}
