// The tree a release tag holds: what `uses: owner/mcprely@vX.Y.Z` runs as it is, with no build and no development
// packages. The built dist/ (every JavaScript dependency is bundled into it), action.yml, the rule pages the
// annotations link to, the schemas, the rules, README and LICENSE; and a package.json and package-lock.json that
// name only the runtime dependencies left outside the bundle (better-sqlite3, a native addon the evidence's
// ledger loads, and pg, loaded only for a PostgreSQL store), taken from this repository's own lock, so the
// release installs exactly what the tests ran with (`npm ci --omit=dev`, which action.yml runs when evidence is on).
//
//   node scripts/release-tree.mjs <folder>     builds dist/ when it is missing, then writes the tree into <folder>
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The dependencies dist/ loads from node_modules (scripts/build.mjs leaves them external). */
export const RUNTIME_DEPENDENCIES = ['better-sqlite3', 'pg'];

/** What a release holds besides package.json and package-lock.json: the action, its code, the pages it links to. */
const COPIED = ['action.yml', 'dist', 'docs', 'schemas', 'rules', 'README.md', 'LICENSE'];

/** The release's package.json: the version, ES modules, and the runtime dependencies at the versions the tests ran with. */
export function releasePackage(pkg) {
  return {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    type: 'module',
    private: true,
    engines: pkg.engines,
    bin: pkg.bin,
    dependencies: Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, pkg.dependencies[name]])),
    // npm 11 runs an install script that allowScripts names without a warning (better-sqlite3 builds its addon).
    allowScripts: { [`better-sqlite3@${pkg.dependencies['better-sqlite3']}`]: true },
  };
}

/**
 * The release's lock: the entries of this repository's lock that the runtime dependencies need (their
 * dependencies and optional dependencies, resolved as npm places them), nothing a development tool brings.
 */
export function releaseLock(lock, pkg) {
  const packages = lock.packages;
  const kept = new Map();
  const visit = (name, from) => {
    // npm resolves a dependency in the nearest node_modules up from the package that needs it.
    let base = from;
    for (;;) {
      const key = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
      if (packages[key] !== undefined) {
        if (kept.has(key)) return;
        const entry = packages[key];
        kept.set(key, entry);
        for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) visit(dependency, key);
        return;
      }
      if (base === '') {
        // An optional dependency npm did not install for this platform is left to npm.
        return;
      }
      const at = base.lastIndexOf('/node_modules/');
      base = at === -1 ? '' : base.slice(0, at);
    }
  };
  for (const name of RUNTIME_DEPENDENCIES) visit(name, '');
  const release = releasePackage(pkg);
  const entries = [...kept].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, entry]) => [key, withoutDevFlags(entry)]);
  return {
    name: pkg.name,
    version: pkg.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: pkg.name, version: pkg.version, license: pkg.license, dependencies: release.dependencies, engines: pkg.engines },
      ...Object.fromEntries(entries),
    },
  };
}

function withoutDevFlags(entry) {
  const { dev: _dev, devOptional: _devOptional, peer: _peer, ...rest } = entry;
  return rest;
}

/** Writes the release tree into `folder` (which must be empty or new). */
export function writeReleaseTree(folder) {
  const target = resolve(folder);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} is not empty`);
  if (!existsSync(join(root, 'dist/action.js'))) {
    const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed');
  }
  mkdirSync(target, { recursive: true });
  for (const path of COPIED)
    cpSync(join(root, path), join(target, path), {
      recursive: true,
      // The screenshots stay in the repository (as in the npm package's "files").
      filter: (source) => !source.startsWith(join(root, 'docs/images')),
    });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(releasePackage(pkg), null, 2)}\n`);
  writeFileSync(join(target, 'package-lock.json'), `${JSON.stringify(releaseLock(lock, pkg), null, 2)}\n`);
  return target;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (folder === undefined) {
    process.stderr.write('usage: node scripts/release-tree.mjs <folder>\n');
    process.exit(2);
  }
  try {
    const written = writeReleaseTree(folder);
    process.stdout.write(`release tree written to ${written}\n`);
  } catch (error) {
    process.stderr.write(`release-tree: ${error.message}\n`);
    process.exit(1);
  }
}
