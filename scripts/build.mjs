// Builds dist/: precompiles the schemas, then bundles each entry point into one self-contained ES module with esbuild.
// Bundling matters for cold start: one file loads far faster than many small modules (on Node 24 each module costs
// about a third of a millisecond to resolve, link and evaluate, and a lint loaded ~50 chunks when code was split).
// The code a run does not use is still not run: esbuild turns a dynamic import() within a bundle into a function
// that evaluates the imported modules when it is called.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
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
// The API's declarations take tsc a few seconds: it runs while esbuild bundles.
const apiDeclarations = emitApiDeclarations();

// `import … from 'node:fs'` in an ES module makes Node build an ES module facade of the builtin, reading every
// export, getters included: for node:fs that loads fs/promises, streams and readline at every start (about 6 ms on
// Node 24). Through `require` (the banner's createRequire) the builtin is used as it is, each property when read.
// better-sqlite3 the same way, for another reason: in a bundle, a static import of an external package is hoisted to
// the bundle's top, and would load the native addon at every start; required, it loads when the ledger is opened.
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^(node:|better-sqlite3$)/ }, (args) =>
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

// The compile cache (src/cli/compile-cache.ts) keeps only modules compiled after it is enabled, so the bundle that
// enables it cannot be the one that holds the action: its entry point is a few lines that enable it and import its
// bundle, left external here (dist/action.js → dist/action-main.js). The CLI's is dist/cli-function.js (below).
const entryImports = {
  name: 'entry-imports-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/main\.js$/ }, (args) =>
      /[\\/]src[\\/]action[\\/]bin\.ts$/.test(args.importer) ? { path: './action-main.js', external: true } : undefined,
    );
  },
};

const define = { MCPRELY_VERSION: JSON.stringify(version), MCPRELY_BUILD_ID: JSON.stringify(buildId.digest('hex').slice(0, 16)) };
const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // better-sqlite3 is a native addon and pg is optional: both are loaded from node_modules, never bundled.
  external: ['better-sqlite3', 'pg'],
  legalComments: 'none',
  // Less text to parse at every start (names are kept, so stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

// The CLI (src/cli/start.ts) as one function expression, `(async function (require, __mcprelyModuleUrl) {…})`, which
// dist/mcprely.js compiles with node:vm and its own code cache (src/cli/run-with-code-cache.ts): a module's code cache
// cannot be taken after it has run, a script's can. The ES module esbuild writes has no import or export left (the
// builtins and better-sqlite3 go through require, pg's import() becomes a require in a promise), so its text is a
// strict async function's body: top-level await stays as it is, import.meta.url is the function's argument.
const cliModule = await build({
  ...shared,
  entryPoints: ['src/cli/start.ts'],
  write: false,
  outfile: 'dist/cli-function.js',
  format: 'esm',
  supported: { 'dynamic-import': false },
  define: { ...define, 'import.meta.url': '__mcprelyModuleUrl' },
  plugins: [lazyChildProcess, builtinsByRequire],
});
const cliBody = cliModule.outputFiles[0].text;
const cliFunction = `(async function (require, __mcprelyModuleUrl) {"use strict";\n${cliBody}\n})\n`;
// Checked here, so a change of esbuild's output or of the code fails the build, not a user's start: the text is
// ASCII (the loader reads it as latin1) and compiles as a script (no import, export or import.meta left).
if (Buffer.byteLength(cliFunction) !== cliFunction.length)
  throw new Error('dist/cli-function.js is not ASCII: the CLI loader reads it as latin1');
new Script(cliFunction, { filename: 'dist/cli-function.js' });
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'cli-function.js'), cliFunction);
const cliScriptId = createHash('sha256').update(cliFunction).digest('hex').slice(0, 16);

await build({
  ...shared,
  // The command line's entry point, the GitHub Action's, and the reference implementation as a library (package
  // export "mcprely/reference").
  entryPoints: {
    mcprely: 'src/cli/bin.ts',
    action: 'src/action/bin.ts',
    'action-main': 'src/action/main.ts',
    reference: 'src/reference/index.ts',
    'race-worker': 'src/simulator/race-worker.ts',
  },
  outdir: 'dist',
  // Every bundle self-contained: no chunks. Each process loads one bundle (the race worker's threads one more, in
  // realms of their own), so no module is there twice in one realm, with two copies of its classes or its state.
  splitting: false,
  format: 'esm',
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // The code cache of dist/mcprely.js is keyed on the CLI script's text, so no other build's cache is ever taken.
  define: { ...define, MCPRELY_CLI_SCRIPT_ID: JSON.stringify(cliScriptId) },
  plugins: [entryImports, lazyChildProcess, builtinsByRequire],
});
// The programs run as themselves (`./dist/mcprely.js`, a project's `npx mcprely` inside this repository): executable, as
// npm makes a package's bin when it installs it.
for (const program of ['mcprely.js', 'action.js']) chmodSync(join(root, 'dist', program), 0o755);

// The Node API (package export "."): src/api/index.ts as an ES module for `import { lint } from 'mcprely'`, with no
// shebang (it is a library, not a program), and its declarations (below).
await build({
  ...shared,
  entryPoints: { api: 'src/api/index.ts' },
  outdir: 'dist',
  splitting: false,
  format: 'esm',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  define,
  plugins: [builtinsByRequire],
});
pruneApiDeclarations(await apiDeclarations);

/** The API's declarations, by tsc (tsconfig.api.json) into dist/types/; resolves to that folder. */
function emitApiDeclarations() {
  return new Promise((resolve, reject) => {
    const tsc = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.api.json')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    for (const stream of [tsc.stdout, tsc.stderr]) stream.setEncoding('utf8').on('data', (chunk) => (said += chunk));
    tsc.once('error', reject);
    tsc.once('close', (code) =>
      code === 0 ? resolve(join(root, 'dist', 'types')) : reject(new Error(`the API's declarations could not be emitted:\n${said}`)),
    );
  });
}

/**
 * Keeps only the declarations the types of dist/types/api/index.d.ts reach (tsc emits one for every module the
 * API's code imports; a declaration imports only what its types name): what a consumer's compiler reads.
 */
function pruneApiDeclarations(types) {
  const reached = new Set();
  const pending = [join(types, 'api', 'index.d.ts')];
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    if (!existsSync(file)) throw new Error(`the API's declarations name ${file}, which tsc did not emit`);
    reached.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
      pending.push(join(dirname(file), match[1].replace(/\.js$/, '.d.ts')));
  }
  for (const file of readdirSync(types, { recursive: true }).map(String)) {
    const path = join(types, file);
    if (statSync(path).isFile() && !reached.has(path)) rmSync(path);
  }
  for (const folder of readdirSync(types, { recursive: true }).map(String).sort().reverse()) {
    const path = join(types, folder);
    if (statSync(path).isDirectory() && readdirSync(path).length === 0) rmSync(path, { recursive: true });
  }
}
