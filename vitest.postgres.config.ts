import { defineConfig } from 'vitest/config';

/**
 * The tests that need a PostgreSQL server: run by scripts/postgres-tests.mjs (npm run test:postgres), which
 * starts a throwaway server and passes its address in MCPRELY_TEST_DATABASE_URL.
 */
export default defineConfig({
  test: { include: ['test/postgres/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, maxWorkers: 1 },
});
