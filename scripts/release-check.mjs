// The release tree as a runner gets it, for real: test/action/release.test.ts with its production packages
// installed by `npm ci --omit=dev` from the release's own lock (here better-sqlite3 builds from source, about two
// minutes; a runner downloads its prebuilt binary). `npm test` runs the same test with those packages copied.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['vitest', 'run', 'test/action/release.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, MCPRELY_RELEASE_INSTALL: 'npm' },
});
process.exit(run.status ?? 1);
