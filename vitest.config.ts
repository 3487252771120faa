import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests start the built CLI and real servers: give them room on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Most end-to-end files wait on child processes and timers (probes, servers, CLI runs), so two workers on
    // the 2-core CI machine overlap their waiting: 168 s for the suite instead of 279 s with one.
    maxWorkers: 2,
  },
});
