import type { Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI's own code cache: V8's compiled code of `dist/cli-function.js`, taken when a run ends, so it holds the
 * functions that run compiled, not only those compiled before it ran. Node's compile cache (compile-cache.ts) is
 * written when a module is compiled, before it runs: every function a command calls is still compiled lazily at
 * each start (~6.8 ms of a lint on Node 24 in stop 41's profile; Node 20 has no compile cache). One file per command, since
 * each command runs other code: `<folder>/<command>-<key>.cache`, the key naming the script (a digest of its text,
 * taken by the build), the V8 version and the script's size and time (V8 itself checks only the source's length).
 * The folder is the user's own: `os.tmpdir()/mcprely-code-cache-<uid>`, created 0700; a folder or a file another
 * user owns or could write is never read from (a code cache is code). Where there are no user ids (Windows) there is
 * no cache: a temporary folder may be shared there. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
 *
 * This file holds the decisions (pure); bin.ts does the reading, compiling and writing.
 */

export const CODE_CACHE_FOLDER_PREFIX = 'mcprely-code-cache-';
const KNOWN_COMMANDS = /^(lint|review|fixtures|verify|evidence|lsp|probe|drift|proxy|audit|init|rules|help)$/;

/** Where the cache lives for this user, or undefined when it is turned off (or there are no user ids to keep it apart). */
export function codeCacheFolder(env: NodeJS.ProcessEnv, tmp: string, uid: number | undefined): string | undefined {
  if (env['NODE_DISABLE_COMPILE_CACHE'] !== undefined && env['NODE_DISABLE_COMPILE_CACHE'] !== '') return undefined;
  if (uid === undefined) return undefined;
  return join(tmp, `${CODE_CACHE_FOLDER_PREFIX}${uid}`);
}

/** The cache's name for a run: its command (or `other`), and what must match for the code to be the same code. */
export function codeCacheName(argv: readonly string[], scriptId: string, v8Version: string, script: Pick<Stats, 'size' | 'mtimeMs'>) {
  const command = KNOWN_COMMANDS.test(argv[2] ?? '') ? argv[2] : 'other';
  const key = `${scriptId}-${v8Version}-${script.size}-${Math.trunc(script.mtimeMs)}`.replace(/[^\w.-]/g, '_');
  return { prefix: `${command}-`, file: `${command}-${key}.cache` };
}

/** Whether a folder may be trusted with code: a real folder (not a link), owned by this user and writable by no one else. */
export function trustedFolder(folder: Pick<Stats, 'isDirectory' | 'isSymbolicLink' | 'uid' | 'mode'>, uid: number) {
  if (!folder.isDirectory() || folder.isSymbolicLink()) return false;
  return folder.uid === uid && (folder.mode & 0o022) === 0;
}
