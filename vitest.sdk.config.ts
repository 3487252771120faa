import { defineConfig } from 'vitest/config';

/**
 * The probe against servers built with the official SDKs (TypeScript v1, v2 and the Python SDK, which
 * scripts/python-sdk.mjs installs into .python-sdk/), the probe's limits on tools of up to 90 s, and tasks on
 * the wire against server-everything and a hand-written task server: about 70 probes, too slow for npm test.
 * Run by npm run test:sdk; .ci/run calls it.
 */
export default defineConfig({
  test: { include: ['test/sdk/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, maxWorkers: 1, maxConcurrency: 4 },
});
