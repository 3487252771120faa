// Runs every benchmark in turn; exits non-zero if any ratio misses its target.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const scripts = [
  'cold-start.mjs',
  'throughput.mjs',
  'lint-vs-spectral.mjs',
  'reference/ledger.mjs',
  'reference/buffer.mjs',
  'reference/storm.mjs',
  'reference/postgres-ledger.mjs',
  'start-vs-lint.mjs',
  'fix.mjs',
  'speed.mjs',
  'lsp.mjs',
  'evidence-memory.mjs',
  'proxy-latency.mjs',
  'http-proxy-latency.mjs',
  'proxy-load.mjs',
];
let failed = 0;
for (const script of scripts) {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
