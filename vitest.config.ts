import { defineConfig } from 'vitest/config';
import { LIVE } from './vitest.live.config.js';

/**
 * npm test: everything but the slow real-process suites, on two workers: most end-to-end files wait on child
 * processes and timers, so two workers on the 2-core CI machine overlap their waiting.
 * test/probe/hostile-servers.test.ts and known-servers.test.ts: npm run test:live (vitest.live.config.ts).
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
    exclude: [...LIVE, 'test/postgres/**', 'test/browser/**', 'test/sdk/**'],
    maxWorkers: 2,
  },
});
