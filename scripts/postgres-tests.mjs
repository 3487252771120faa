// The checks that need a PostgreSQL server: starts a throwaway one (scripts/postgres-server.mjs), runs the
// PostgreSQL tests (vitest.postgres.config.ts) and the ledger kill test against it, then stops it.
//   node scripts/postgres-tests.mjs [--kill-seconds 15]
// Needs dist/ (node scripts/build.mjs) and PostgreSQL's binaries (apt-get install -y postgresql).
import { spawnSync } from 'node:child_process';
import { startPostgres } from './postgres-server.mjs';

const at = process.argv.indexOf('--kill-seconds');
const killSeconds = at === -1 ? '15' : process.argv[at + 1];
const server = await startPostgres();
console.log(`--- PostgreSQL started on 127.0.0.1:${server.port} (a throwaway cluster in ${server.dir})`);
let status = 0;
try {
  const env = { ...process.env, MCPRELY_TEST_DATABASE_URL: server.url };
  const tests = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.postgres.config.ts'], {
    stdio: 'inherit',
    env,
  });
  status ||= tests.status ?? 1;
  console.log(`--- the ledger under SIGKILL on PostgreSQL (${killSeconds} s)`);
  const kill = spawnSync(process.execPath, ['scripts/ledger-kill-test.mjs', '--seconds', killSeconds, '--database-url', server.url], {
    stdio: 'inherit',
    env,
  });
  status ||= kill.status ?? 1;
} finally {
  server.stop();
  console.log('--- PostgreSQL stopped and removed');
}
process.exitCode = status;
