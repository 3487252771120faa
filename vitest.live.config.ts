import { defineConfig } from 'vitest/config';

/**
 * The slow suites: the probe's verdicts on every hostile server defect (each transport and revision) and on servers
 * built with the official SDKs and server-everything, the judges on real sessions through the proxy, hostile
 * manifests through every command, and load (the hostile size series, floods through the proxy). The verdicts are
 * timing judgements (what crossed a cancellation on the wire, which defect showed first), so the files run on one
 * worker, as on a quiet machine. npm test keeps the wiring of each transport (test/probe/probe-wiring.test.ts,
 * test/proxy/proxy.test.ts and http-proxy.test.ts, one seed of each passthrough property); the checks' logic is
 * tabled in test/probe/checks/, the judges' in test/judges/. Run by npm run test:live; .ci/run calls it after npm test.
 */
export const LIVE = [
  'test/probe/hostile-servers.test.ts',
  'test/probe/known-servers.test.ts',
  // A tool that never answers: a default run (its 65 s limit once) talks on stderr as it goes and ends within 90 s.
  'test/probe/probe-talks.test.ts',
  // drift on server-everything with the manifest init writes for it (its long tool, probed twice).
  'test/probe/drift-everything.test.ts',
  // drift's outcomes on the SDK-built server: what init wrote agrees, nothing compared exits 3 (npm test keeps its wiring).
  'test/probe/drift-outcomes.test.ts',
  // init --observe on server-everything (stdio and HTTP) and the SDK 1.x server, then lint and drift of what it wrote.
  'test/probe/init-observe.test.ts',
  // The chosen hostile manifests through every command of the built CLI (about 85 runs); npm test keeps four.
  'test/hostile/cli-hostile-inputs.test.ts',
  // Load: the hostile size series (100 to 3 000 operations) through every stage in process, held to scaling.
  'test/hostile/in-process-sizes.test.ts',
  // Load: 150 000 findings in every format (npm test runs the default format).
  'test/hostile/wide-findings.test.ts',
  // The ledger under SIGKILL: processes killed at random moments for 4 s, then every key replayed.
  'test/reference/ledger-kill.test.ts',
  // Load: floods of 50 to 200 MB through the proxy over stdio and HTTP, its peak memory measured.
  'test/proxy/floods.test.ts',
  // The judges on real sessions through the proxy, stdio and HTTP (real timing); npm test keeps each transport's wiring.
  'test/proxy/proxy-sessions.test.ts',
  'test/proxy/http-proxy-sessions.test.ts',
  // The passthrough properties' other seeds (npm test runs one per transport).
  'test/proxy/passthrough-seeds.test.ts',
];

export default defineConfig({
  // --expose-gc: the size series measures the heap its stages still hold after a collection, not uncollected garbage.
  test: { include: LIVE, testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 1, execArgv: ['--expose-gc'] },
});
