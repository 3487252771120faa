// Builds dist/: precompiles the schemas, then bundles the CLI into a few ES modules with esbuild.
// Bundling matters for cold start: one file loads far faster than hundreds of small modules.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { compileSchemas } from './compile-schemas.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

compileSchemas();
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
  define: { MCPRELY_VERSION: JSON.stringify(version) },
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});
