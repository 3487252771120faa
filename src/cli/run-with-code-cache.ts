import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { codeCacheFolder, codeCacheName, trustedFolder } from './code-cache.js';

/** What `dist/cli-function.js` evaluates to: the CLI, given a `require` and the URL it stands at. */
export type CliFunction = (require: NodeJS.Require, moduleUrl: string) => Promise<void>;

interface OpenCache {
  readonly folder: string;
  readonly file: string;
  readonly prefix: string;
  readonly uid: number;
  readonly data: Buffer | undefined;
}

/**
 * Compiles the CLI's script with its code cache (code-cache.ts) and returns the function it defines. When there was
 * no cache, or V8 refused it, the cache is written as the process exits, with the code of everything the run
 * compiled. Any failure of the cache only costs time: the script runs uncached and nothing is said.
 */
export function loadWithCodeCache(scriptFile: string, argv: readonly string[], scriptId: string): CliFunction {
  // The build checks that the script is ASCII: read as latin1, it is the same text without decoding UTF-8.
  const source = readFileSync(scriptFile, 'latin1');
  const cache = openCache(scriptFile, argv, scriptId);
  const script = new Script(source, { filename: scriptFile, ...(cache?.data === undefined ? {} : { cachedData: cache.data }) });
  const cli = script.runInThisContext() as CliFunction;
  if (cache !== undefined && (cache.data === undefined || script.cachedDataRejected === true))
    process.once('exit', () => saveCache(cache, script));
  return cli;
}

function openCache(scriptFile: string, argv: readonly string[], scriptId: string): OpenCache | undefined {
  try {
    const uid = process.getuid?.();
    const folder = codeCacheFolder(process.env, tmpdir(), uid);
    if (folder === undefined || uid === undefined) return undefined;
    const name = codeCacheName(argv, scriptId, process.versions.v8, statSync(scriptFile));
    let data: Buffer | undefined;
    try {
      if (!trustedFolder(lstatSync(folder), uid)) return undefined;
      data = readOwnFile(join(folder, name.file), uid);
    } catch {
      // No folder or no file yet: written at exit.
    }
    return { folder, ...name, uid, data };
  } catch {
    return undefined;
  }
}

/** A file's bytes, when it is a regular file of this user that no one else can write (checked on the open file). */
function readOwnFile(path: string, uid: number): Buffer | undefined {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== uid || (stat.mode & 0o022) !== 0) return undefined;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function saveCache(cache: OpenCache, script: Script): void {
  // A name no other process writes (pids repeat across containers sharing a folder), created, never opened twice.
  const temporary = join(cache.folder, `${cache.file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    mkdirSync(cache.folder, { recursive: true, mode: 0o700 });
    if (!trustedFolder(lstatSync(cache.folder), cache.uid)) return;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, join(cache.folder, cache.file));
    // One cache per command: an earlier build's (or V8's) is of no more use.
    for (const name of readdirSync(cache.folder))
      if (name.startsWith(cache.prefix) && name.endsWith('.cache') && name !== cache.file)
        rmSync(join(cache.folder, name), { force: true });
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // A temporary file left behind in the user's own folder: harmless.
    }
  }
}
