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
  logLevel: 'warning',
});
