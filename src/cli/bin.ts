import { enableCompileCache } from './compile-cache.js';

// Before anything else is loaded, so the rest of the CLI is compiled into the cache (Node 22.1+): start.ts, imported
// after the call, is the CLI (in dist/, one bundle of its own: dist/cli.js).
enableCompileCache();
await import('./start.js');
