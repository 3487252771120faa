import { defineConfig } from 'vitest/config';

/**
 * The probe's verdicts on hostile and known servers are timing judgements (what crossed a cancellation on the
 * wire, which defect showed first): they run on their own, after everything else, as they would on a quiet
 * machine. Everything else runs on two workers: most end-to-end files wait on child processes and timers, so
 * two workers on the 2-core CI machine overlap their waiting.
 */
const PROBE_VERDICTS = ['test/probe/hostile-servers.test.ts', 'test/probe/known-servers.test.ts'];
// test/postgres/ needs a PostgreSQL server: npm run test:postgres starts one and runs them (vitest.postgres.config.ts).
// test/browser/ needs Chromium: npm run test:browser (vitest.browser.config.ts).
// test/sdk/ probes the SDK-built servers (slow): npm run test:sdk (vitest.sdk.config.ts).

export default defineConfig({
  test: {
    // End-to-end tests start the built CLI and real servers: give them room on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: [...PROBE_VERDICTS, 'test/postgres/**', 'test/browser/**', 'test/sdk/**'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'probe verdicts', include: PROBE_VERDICTS, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
