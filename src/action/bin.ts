import { enableCompileCache } from '../cli/compile-cache.js';

// The GitHub Action's entry point: `node dist/action.js check|comment` (see action.yml). The compile cache first
// (Node 22.1+), then the rest, imported after it so that it is cached.
enableCompileCache();
const { main } = await import('./main.js');
process.exitCode = await main(process.argv[2], process.env);
