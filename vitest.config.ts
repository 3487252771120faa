import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { LIVE } from './vitest.live.config.js';
import { EXHAUSTIVE } from './vitest.variants.config.js';

/**
 * The longest files (each 11–52 s in a whole run on the 2-core machine at load ~4), started first: on a fresh clone
 * vitest has no timings and starts larger files first, so short files of heavy tables and the
 * policy-variant files ran last while the other worker could sit idle. A file missing from the list only loses its
 * place.
 */
const LONGEST_FIRST = [
  'test/probe/drift.test.ts',
  'test/hostile/cli-hostile.test.ts',
  'test/cli/secrets.test.ts',
  'test/probe/live-evidence.test.ts',
  'test/verify/policy-variants.test.ts',
  'test/reference/mutation-ledger.test.ts',
  'test/probe-client/raw-clients.test.ts',
  'test/cli/lint-cache.test.ts',
  'test/proxy/proxy.test.ts',
  'test/action/action.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order (failed, then longest, by its cached timings).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * npm test: everything but the slow real-process suites, on two workers: most end-to-end files wait on child
 * processes and timers, so two workers on the 2-core CI machine overlap their waiting.
 * The probe's verdicts, the judges on real sessions through the proxy, hostile manifests through every command, load
 * (proxy floods, 150 000 findings in every format), the ledger under SIGKILL, the passthrough properties' other
 * seeds: npm run test:live (vitest.live.config.ts).
 * test/postgres/ needs a PostgreSQL server: npm run test:postgres starts one and runs them (vitest.postgres.config.ts).
 * test/browser/ needs Chromium: npm run test:browser (vitest.browser.config.ts).
 * test/sdk/ probes the SDK-built servers (slow): npm run test:sdk (vitest.sdk.config.ts).
 * .ci/run calls each of them.
 */
export default defineConfig({
  test: {
    // End-to-end tests start the built CLI and real servers: give them room on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ['test/**/*.test.ts'],
    exclude: [...LIVE, ...EXHAUSTIVE, 'test/postgres/**', 'test/browser/**', 'test/sdk/**'],
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
