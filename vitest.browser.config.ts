import { defineConfig } from 'vitest/config';

/**
 * The tests that need a browser: Debian's Chromium at /usr/bin/chromium (or MCPRELY_CHROMIUM), driven by
 * playwright-core. Run by npm run test:browser; .ci/run installs chromium when it is missing.
 */
export default defineConfig({
  test: { include: ['test/browser/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: 1 },
});
