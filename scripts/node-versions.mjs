// mcprely on the Node.js releases users run besides this machine's own: the whole vitest suite on Node 24, and
// the examples check (scripts/check-examples.mjs and `mcprely lint` on the complete example) on Node 22.
//
// Each runtime comes from the npm registry (scripts/node-releases.mjs: the platform package with bin/node and the headers).
// Each release gets its own copy of the repository in .node-versions/ (git-ignored) with its own `npm ci` (Node 22's:
// the runtime dependencies only), run by that release's node with npm_config_nodedir at those headers: better-sqlite3
// is built from source for that ABI (137 for Node 24, 127 for Node 22), with no download but npm packages. The tests spawn process.execPath for their
// children, so under that node every CLI child runs on it too (test/package/runtime.test.ts checks it).
//
//   node scripts/node-versions.mjs          both releases
//   node scripts/node-versions.mjs 24       the suite on Node 24 only (22: the examples on Node 22 only)
//
// Prints the time of each step. A copy whose package-lock.json and runtime did not change keeps its node_modules.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRuntime, RELEASES, runLogged, seconds, tail, WORK as work } from './node-releases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const wanted = process.argv.slice(2).length === 0 ? Object.keys(RELEASES) : process.argv.slice(2);
for (const major of wanted) if (!(major in RELEASES)) fail(`unknown release ${major}: one of ${Object.keys(RELEASES).join(', ')}`);
const started = Date.now();

function fail(message) {
  console.error(`node-versions: ${message}`);
  process.exit(1);
}

/** The environment in which `node` and `npm` are the release's, and node-gyp builds against its headers. */
function envFor(runtime) {
  const env = { ...process.env, PATH: `${runtime.bin}${delimiter}${process.env.PATH ?? ''}` };
  env.npm_config_nodedir = runtime.home;
  // better-sqlite3's prebuild-install would try a download first (no network here): straight to node-gyp.
  env.npm_config_build_from_source = 'true';
  env.npm_config_audit = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_update_notifier = 'false';
  // The parent's per-run npm variables (set when this script runs under `npm run`) must not leak in.
  for (const name of Object.keys(env)) if (/^npm_(lifecycle|package|node_execpath|execpath)/.test(name)) delete env[name];
  delete env.NODE;
  return env;
}

/** The repository's files as a checkout has them (tracked and new, not ignored): regular files only (a node_modules link is not copied). */
function repositoryFiles() {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) fail(`git ls-files failed (this script copies a git checkout): ${listed.stderr}`);
  return [
    ...new Set(
      listed.stdout.split('\0').filter((file) => file !== '' && lstatSync(join(root, file), { throwIfNoEntry: false })?.isFile() === true),
    ),
  ];
}

/**
 * .node-versions/node-<major>/: a fresh copy of the repository's files, its node_modules installed by the release's
 * npm. The suite's copy gets everything (`npm ci`, whose `prepare` builds dist/ on that release); the examples' copy
 * only the dependencies a user installs (`--omit=dev`, better-sqlite3 then built by `npm rebuild`) and the dist/ of
 * this checkout: the examples need the built CLI and its runtime dependencies, not the toolchain.
 */
async function prepareCopy(runtime) {
  const full = RELEASES[runtime.major].job === 'suite';
  const copy = join(work, `node-${runtime.major}`);
  mkdirSync(copy, { recursive: true });
  for (const name of readdirSync(copy)) if (name !== 'node_modules') rmSync(join(copy, name), { recursive: true, force: true });
  for (const file of repositoryFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  const stamp = createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .update(runtime.version)
    .update(full ? 'full' : 'production')
    .digest('hex');
  const stampFile = join(copy, 'node_modules', '.node-versions-stamp');
  const env = envFor(runtime);
  const log = join(work, `npm-ci-node-${runtime.major}.log`);
  const since = Date.now();
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    const npm = async (args) => {
      const status = await runLogged('npm', args, { cwd: copy, env, log });
      if (status !== 0) fail(`npm ${args[0]} on Node ${runtime.version} failed (log: ${log}):\n${tail(log)}`);
    };
    if (full) await npm(['ci', '--prefer-offline', '--foreground-scripts']);
    else {
      await npm(['ci', '--prefer-offline', '--omit=dev', '--ignore-scripts']);
      await npm(['rebuild', 'better-sqlite3', '--foreground-scripts']);
    }
    writeFileSync(stampFile, stamp);
    console.log(
      `  Node ${runtime.version}: npm ci${full ? '' : ' --omit=dev'} (better-sqlite3 built from source)${full ? ' and the build' : ''} in ${seconds(since)}`,
    );
  } else if (full) {
    const status = await runLogged('node', ['scripts/build.mjs'], { cwd: copy, env, log });
    if (status !== 0) fail(`the build on Node ${runtime.version} failed:\n${tail(log)}`);
    console.log(`  Node ${runtime.version}: node_modules kept (same lock file and runtime), built in ${seconds(since)}`);
  } else console.log(`  Node ${runtime.version}: node_modules kept (same lock file and runtime)`);
  if (!full) cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
  // The native addon must load on this release (an ABI mismatch throws here, not in the middle of a test).
  const probe = spawnSync(
    runtime.exe,
    ['-e', "const D = require('better-sqlite3'); new D(':memory:').close(); console.log(process.versions.modules)"],
    { cwd: copy, env, encoding: 'utf8' },
  );
  if (probe.status !== 0) fail(`better-sqlite3 does not load on Node ${runtime.version}:\n${probe.stderr}`);
  console.log(`  Node ${runtime.version}: better-sqlite3 loads (ABI ${probe.stdout.trim()})`);
  return { copy, env };
}

/** A step whose output is shown as it comes; exits when it fails. */
function step(title, command, args, { cwd, env }) {
  console.log(`--- ${title}`);
  const since = Date.now();
  const run = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (run.status !== 0) fail(`${title}: exit ${run.status ?? run.signal}`);
  console.log(`  (${seconds(since)})`);
}

mkdirSync(work, { recursive: true });
console.log(`Node releases under test: ${wanted.map((major) => RELEASES[major].version).join(', ')} (this machine: ${process.version})`);
// The examples' copy takes this checkout's dist/: built here first, by this machine's node, from these sources.
if (wanted.some((major) => RELEASES[major].job !== 'suite')) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) fail('the build (node scripts/build.mjs) failed');
}
const runtimes = await Promise.all(wanted.map((major) => installRuntime(major))).catch((error) => fail(error.message));
// Both copies install at once: each build of better-sqlite3 is mostly one compiler process, and there are two cores.
const copies = await Promise.all(runtimes.map(prepareCopy));
for (const [index, runtime] of runtimes.entries()) {
  const { copy, env } = copies[index];
  const options = { cwd: copy, env: { ...env, MCPRELY_EXPECT_NODE: `v${runtime.version}` } };
  if (RELEASES[runtime.major].job === 'suite')
    step(`the vitest suite on Node ${runtime.version}`, runtime.exe, ['node_modules/vitest/vitest.mjs', 'run'], options);
  else {
    step(
      `mcprely lint on the complete example, Node ${runtime.version}`,
      runtime.exe,
      ['dist/mcprely.js', 'lint', 'fixtures/examples/billing.yaml'],
      options,
    );
    step(`the examples check on Node ${runtime.version}`, runtime.exe, ['scripts/check-examples.mjs'], options);
  }
}
console.log(
  `node-versions: ${wanted.map((major) => `Node ${RELEASES[major].version} (${RELEASES[major].job})`).join(', ')} passed in ${seconds(started)}`,
);
