import { defineConfig } from 'vitest/config';

/**
 * The exhaustive in-process tables, of which npm test runs a sample, each in its own process (not beside the live
 * suites' size series, whose heap they would share):
 * - every single-field variant of every bundled clean example (test/variants/, one file per example, so they share the
 *   workers): lint error ⇒ a failing fixture or a lint-only reason, failing fixture ⇒ a lint finding
 *   (npm run test:variants; npm test runs one in fifteen, test/verify/policy-variants.test.ts);
 * - every hostile input through every stage (npm run test:hostile; npm test runs one of each class).
 * .ci/run calls both after npm test.
 */
export const EXHAUSTIVE = ['test/variants/*.test.ts', 'test/hostile/in-process-all.test.ts'];

export default defineConfig({
  test: { include: EXHAUSTIVE, testTimeout: 600_000 },
});
