// The Node.js releases mcprely is tested on besides this machine's own, each installed from the npm registry into
// .node-versions/runtimes/ (git-ignored): the platform package `node-<os>-<cpu>`, which the `node` package installs
// through its preinstall script, holds bin/node and include/node (the headers node-gyp builds native addons against).
// Used by scripts/node-versions.mjs (the tests) and bench/node-versions.mjs (cold start on each release).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned, so every CI run tests the same releases; bump them with the lines' new releases. */
export const RELEASES = {
  24: { version: '24.21.0', job: 'suite' },
  22: { version: '22.23.3', job: 'examples' },
};

export const WORK = fileURLToPath(new URL('../.node-versions/', import.meta.url));
const platformPackage = `node-${process.platform}-${process.arch}`;

export function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(0)} s`;
}

/** A command run to completion with its output in a log file; resolves to its exit code. */
export function runLogged(command, args, { cwd, env, log }) {
  return new Promise((resolve) => {
    writeFileSync(log, `$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const append = (chunk) => writeFileSync(log, chunk, { flag: 'a' });
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    child.on('error', (error) => {
      append(String(error));
      resolve(1);
    });
    child.on('close', (status) => resolve(status ?? 1));
  });
}

export function tail(log, lines = 40) {
  return readFileSync(log, 'utf8').split('\n').slice(-lines).join('\n');
}

/**
 * The release (a key of RELEASES) installed unless it already is: { major, version, home, bin, exe }, where home
 * is the folder with bin/ and include/ (what npm_config_nodedir points at). Throws when the registry has no such package.
 */
export async function installRuntime(major, log = (line) => console.log(line)) {
  const { version } = RELEASES[major];
  const prefix = join(WORK, 'runtimes', `node-${version}`);
  const home = join(prefix, 'node_modules', platformPackage);
  const exe = join(home, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const runtime = { major, version, home, bin: dirname(exe), exe };
  const installed = () => existsSync(exe) && spawnSync(exe, ['--version'], { encoding: 'utf8' }).stdout.trim() === `v${version}`;
  if (installed()) log(`  Node ${version}: already in ${prefix}`);
  else {
    const since = Date.now();
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    // A package.json of its own, so npm installs here and never walks up to the repository's.
    writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ name: `node-${major}`, private: true })}\n`);
    const npmLog = join(WORK, `install-node-${major}.log`);
    const status = await runLogged(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', `${platformPackage}@${version}`],
      { cwd: prefix, env: { ...process.env, npm_config_update_notifier: 'false' }, log: npmLog },
    );
    if (status !== 0 || !installed())
      throw new Error(`could not install ${platformPackage}@${version} from the registry:\n${tail(npmLog)}`);
    log(`  Node ${version} installed from the registry (${platformPackage}) in ${seconds(since)}`);
  }
  if (!existsSync(join(home, 'include', 'node', 'node_version.h')))
    throw new Error(`${platformPackage}@${version} has no include/node headers`);
  return runtime;
}
