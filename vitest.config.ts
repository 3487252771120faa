import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests start the built CLI and real servers: give them room on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
