import * as nodeModule from 'node:module';

type EnableCompileCache = (directory?: string) => unknown;

/**
 * Node 22.1 and later keep the V8 code of the modules they compile on disk (in os.tmpdir()/node-compile-cache
 * unless NODE_COMPILE_CACHE names a folder), so the next start of mcprely skips most of its parsing and compiling.
 * Each entry point calls this before it imports the rest: a module compiled before the call is not cached.
 * Node 20 has no such function, and then nothing happens; NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node checks
 * that itself). Silent either way: the cache only saves time, so a folder it cannot write is no one's concern.
 */
export function enableCompileCache(): void {
  const enable = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    // Nothing to tell: the run goes on uncached.
  }
}
