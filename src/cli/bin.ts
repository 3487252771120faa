import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { enableCompileCache } from './compile-cache.js';
import { loadWithCodeCache } from './run-with-code-cache.js';

/** A digest of dist/cli-function.js's text, taken by the build: the code cache's key. */
declare const MCPRELY_CLI_SCRIPT_ID: string;

// Node's compile cache for what the CLI loads from node_modules (better-sqlite3's and pg's JavaScript), then the CLI
// itself (dist/cli-function.js, built from start.ts) through its own code cache, which also keeps the code the run
// compiled lazily (run-with-code-cache.ts).
enableCompileCache();
const cli = new URL('./cli-function.js', import.meta.url);
await loadWithCodeCache(fileURLToPath(cli), process.argv, MCPRELY_CLI_SCRIPT_ID)(createRequire(cli), cli.href);
