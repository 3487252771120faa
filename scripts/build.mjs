// Builds dist/: precompiles the schemas, then bundles the CLI into a few ES modules with esbuild.
// Bundling matters for cold start: one file loads far faster than hundreds of small modules.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { compileSchemas } from './compile-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

compileSchemas();
// What this build is made of: the lint cache keys on it, so a rebuilt mcprely never trusts reports of another.
const buildId = createHash('sha256');
for (const folder of ['src', 'rules', 'schemas'])
  for (const file of readdirSync(join(root, folder), { recursive: true }).map(String).sort()) {
    const path = join(root, folder, file);
    if (statSync(path).isFile()) buildId.update(file).update(readFileSync(path));
  }
rmSync(join(root, 'dist'), { recursive: true, force: true });

// `import … from 'node:fs'` in an ES module makes Node build an ES module facade of the builtin, reading every
// export, getters included: for node:fs that loads fs/promises, streams and readline at every start (about 6 ms on
// Node 24). Through `require` (the banner's createRequire) the builtin is used as it is, each property when read.
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// commander requires node:child_process at load, for executable subcommands mcprely has none of; loading it (and
// the net, dgram and stream modules it pulls in) is part of every start. Its one use, spawn, loads it when called.
const lazyChildProcess = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]lib[\\/]command\.js$/.test(args.importer) ? { path: 'commander-child-process', namespace: 'lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
      resolveDir: root,
    }));
  },
};

await build({
  absWorkingDir: root,
  // The CLI, the GitHub Action's entry point, and the reference implementation as a library (package export "mcprely/reference").
  entryPoints: {
    mcprely: 'src/cli/bin.ts',
    action: 'src/action/bin.ts',
    reference: 'src/reference/index.ts',
    'race-worker': 'src/simulator/race-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // better-sqlite3 is a native addon: it is loaded from node_modules, never bundled.
  external: ['better-sqlite3', 'pg'],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  define: { MCPRELY_VERSION: JSON.stringify(version), MCPRELY_BUILD_ID: JSON.stringify(buildId.digest('hex').slice(0, 16)) },
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  // Less text to parse at every start (names are kept, so stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyChildProcess, builtinsByRequire],
  logLevel: 'warning',
});
