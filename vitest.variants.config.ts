import { defineConfig } from 'vitest/config';

/**
 * Every single-field variant of every bundled clean example (test/variants/, one file per example, so they share the
 * workers): lint error ⇒ a failing fixture or a lint-only reason, failing fixture ⇒ a lint finding. npm test runs a
 * spread sample of the same variants (test/verify/policy-variants.test.ts). Run by npm run test:variants; .ci/run
 * calls it after npm test.
 */
export default defineConfig({
  test: { include: ['test/variants/*.test.ts'], testTimeout: 600_000 },
});
