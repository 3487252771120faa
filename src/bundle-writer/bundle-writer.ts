import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { displayText } from '../text/display-text.js';
import { ownCopy } from '../text/own-copy.js';
import { ensureFolder, ioError, isSymbolicLink, requirePath } from '../workspace/output-files.js';
import { UsageError } from '../workspace/usage-error.js';

/** An index.json larger than this is not one mcprely wrote: it is not read. */
const MAX_INDEX_BYTES = 1024 * 1024;
/** A folder with more entries than this is not an earlier bundle. */
const MAX_ENTRIES = 10_000;
/** How long a run waits for another run writing the same folder. */
const LOCK_WAIT_MS = 30_000;

/**
 * Writes an evidence bundle (relative path → content) into `directory` without losing anything that is not
 * its own. The folder must be new, empty, or hold an earlier bundle, recognised by its index.json, which
 * lists every file that bundle wrote: only those are replaced; files a user added beside them are kept. The
 * bundle is written to a temporary sibling first and moved into place, so a failure leaves the earlier
 * bundle whole; a lock file beside the folder keeps two runs from interleaving. An empty path, a symbolic
 * link, or anything that is not a folder is refused.
 */
export function writeBundle(directory: string, bundle: ReadonlyMap<string, string>): void {
  const writer = BundleWriter.open(directory);
  try {
    for (const [file, content] of bundle) writer.set(file, content);
    writer.commit();
  } finally {
    writer.close();
  }
}

/**
 * The same as `writeBundle`, a file at a time: each file goes to the temporary folder as it is made and is not
 * held in memory (`get` reads it back), so a bundle of 10 000 operations costs no more memory than its largest
 * file. `commit` moves the bundle into place; `close` (always) removes what is left and releases the lock.
 */
export class BundleWriter {
  /**
   * The files written so far, by folder (relative, '.' for the top): each folder is made once, and 80 000 files
   * in 20 000 folders cost a few bytes each, their names (the same few in every folder) kept once.
   */
  readonly #folders = new Map<string, string[]>();
  readonly #names = new Map<string, string>();
  #count = 0;
  #temporary: string | undefined;
  #release: (() => void) | undefined;

  private constructor(
    readonly directory: string,
    readonly target: string,
  ) {}

  /** Checks the folder, takes its lock and makes the temporary folder beside it. */
  static open(directory: string): BundleWriter {
    checkBundleFolder(directory);
    const target = resolve(directory);
    ensureFolder(dirname(target), 'the folder that holds the evidence folder');
    const writer = new BundleWriter(directory, target);
    writer.#release = lock(`${target}.mcprely-lock`, directory);
    try {
      inspect(directory);
      try {
        writer.#temporary = mkdtempSync(join(dirname(target), `.${basename(target)}.mcprely-`));
      } catch (error) {
        throw ioError(error, dirname(target), 'create a temporary folder beside the evidence folder');
      }
    } catch (error) {
      writer.close();
      throw error;
    }
    return writer;
  }

  /** Writes one file of the bundle (a later write of the same path replaces it). */
  set(file: string, content: string): this {
    const path = join(this.#folder(), file);
    const names = this.#makeFolder(file);
    try {
      writeFileSync(path, content);
    } catch (error) {
      throw ioError(error, path, 'write the bundle');
    }
    this.#add(names, file);
    return this;
  }

  /** Writes one file from its pieces, each written as it comes: the file is never held whole. */
  setChunks(file: string, chunks: Iterable<string>): this {
    const path = join(this.#folder(), file);
    const names = this.#makeFolder(file);
    let fd: number | undefined;
    try {
      fd = openSync(path, 'w');
      let pending = '';
      for (const chunk of chunks) {
        pending += chunk;
        if (pending.length >= 1 << 16) {
          writeSync(fd, pending);
          pending = '';
        }
      }
      if (pending !== '') writeSync(fd, pending);
    } catch (error) {
      throw ioError(error, path, 'write the bundle');
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.#add(names, file);
    return this;
  }

  has(file: string): boolean {
    return this.#folders.get(dirname(file))?.includes(basename(file)) ?? false;
  }

  /** A file already written, read back from the temporary folder. */
  get(file: string): string | undefined {
    return this.has(file) ? readFileSync(join(this.#folder(), file), 'utf8') : undefined;
  }

  /** Every file written, folder by folder. */
  *keys(): IterableIterator<string> {
    for (const [folder, names] of this.#folders) for (const name of names) yield folder === '.' ? name : `${folder}/${name}`;
  }

  get size(): number {
    return this.#count;
  }

  /** Moves the bundle into place: the folder's state is read again, under the lock. */
  commit(): void {
    const temporary = this.#folder();
    const target = this.target;
    const state = inspect(this.directory);
    if (state.kind === 'missing' || state.kind === 'empty') {
      if (state.kind === 'empty') rmdirSync(target);
      renameSync(temporary, target);
      this.#temporary = undefined;
      return;
    }
    const added = state.extra;
    const clash = [...this.keys()].filter((file) => added.includes(file));
    if (clash.length > 0)
      throw new UsageError(
        `${shown(this.directory)}: holds ${shown(clash[0]!)}, which the earlier bundle did not write and this one would overwrite; ` +
          'move it away or choose another folder',
      );
    if (added.length === 0) {
      // Only our own files: swap the folders, then remove the old one.
      const old = `${temporary}.old`;
      renameSync(target, old);
      renameSync(temporary, target);
      this.#temporary = undefined;
      rmSync(old, { recursive: true, force: true });
      return;
    }
    // The user added files: remove the earlier bundle's own files one by one, then move the new ones in.
    for (const file of state.earlier) removeOwnFile(target, file);
    for (const file of this.keys()) {
      mkdirSync(dirname(join(target, file)), { recursive: true });
      renameSync(join(temporary, file), join(target, file));
    }
  }

  /** Removes whatever of the temporary folder is left and releases the lock; safe to call twice. */
  close(): void {
    if (this.#temporary !== undefined) rmSync(this.#temporary, { recursive: true, force: true });
    this.#temporary = undefined;
    this.#release?.();
    this.#release = undefined;
  }

  /** Makes the folder of a file of the bundle (once) and gives the names written in it so far. */
  #makeFolder(file: string): string[] {
    const folder = dirname(file);
    let names = this.#folders.get(folder);
    if (names === undefined) {
      const path = join(this.#folder(), folder);
      try {
        mkdirSync(path, { recursive: true });
      } catch (error) {
        throw ioError(error, path, 'write the bundle');
      }
      names = [];
      this.#folders.set(ownCopy(folder), names);
    }
    return names;
  }

  #add(names: string[], file: string): void {
    const name = basename(file);
    if (names.includes(name)) return;
    let kept = this.#names.get(name);
    if (kept === undefined) {
      kept = ownCopy(name);
      this.#names.set(kept, kept);
    }
    names.push(kept);
    this.#count++;
  }

  #folder(): string {
    if (this.#temporary === undefined) throw new Error('the bundle writer is closed');
    return this.#temporary;
  }
}

/** Refuses, before any work is done, a folder the bundle could not be written to (the same checks `writeBundle` repeats under its lock). */
export function checkBundleFolder(directory: string): void {
  requirePath(directory, 'the evidence folder (-o)');
  if (isSymbolicLink(directory))
    throw new UsageError(
      `${shown(directory)}: is a symbolic link; mcprely replaces the folder it writes, so give the real folder, not a link to it`,
    );
  inspect(directory);
}

type FolderState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'earlier'; readonly earlier: readonly string[]; readonly extra: readonly string[] };

function inspect(directory: string): FolderState {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw ioError(error, directory, 'read the evidence folder');
  }
  if (!stat.isDirectory()) throw new UsageError(`${shown(directory)}: is not a folder; give the evidence a folder of its own (-o)`);
  const present = listFiles(directory);
  if (present.length === 0) return { kind: 'empty' };
  const earlier = earlierBundle(directory);
  if (earlier === undefined)
    throw new UsageError(
      `${shown(directory)}: the folder is not empty and holds no earlier mcprely evidence bundle (an index.json that lists its files); ` +
        'refusing to overwrite it. Fix: choose an empty or new folder',
    );
  const own = new Set(earlier);
  return { kind: 'earlier', earlier, extra: present.filter((file) => !own.has(file)) };
}

/** The files an earlier bundle says it wrote, or undefined when the folder holds none (or a forged, oversized or unsafe list). */
function earlierBundle(directory: string): string[] | undefined {
  const text = readBounded(join(directory, 'index.json'), MAX_INDEX_BYTES);
  if (text === undefined) return undefined;
  let index: { mcprelyEvidence?: unknown; files?: unknown };
  try {
    index = JSON.parse(text) as typeof index;
  } catch {
    return undefined;
  }
  if (index?.mcprelyEvidence !== 1 || !Array.isArray(index.files)) return undefined;
  const files = index.files.filter((file): file is string => typeof file === 'string');
  // A list that names anything outside the folder is not one mcprely wrote.
  if (files.length !== index.files.length || files.some((file) => !isInside(file))) return undefined;
  return files;
}

function isInside(file: string): boolean {
  return file !== '' && !file.startsWith('/') && !file.split(/[\\/]/).some((part) => part === '..' || part === '');
}

/** Every file under the folder, as relative paths with forward slashes; refuses a folder too large to be a bundle. */
function listFiles(directory: string): string[] {
  const files: string[] = [];
  const walk = (prefix: string) => {
    for (const entry of readdirSync(join(directory, prefix), { withFileTypes: true })) {
      if (files.length > MAX_ENTRIES)
        throw new UsageError(`${shown(directory)}: holds over ${MAX_ENTRIES} files; choose an empty or new folder`);
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  try {
    walk('');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw ioError(error, directory, 'read the evidence folder');
  }
  return files;
}

function removeOwnFile(root: string, file: string): void {
  try {
    unlinkSync(join(root, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(error, join(root, file), 'replace the earlier bundle');
  }
  // Folders the earlier bundle made, now empty, go too; a folder still holding a user's file stays.
  for (let folder = dirname(file); folder !== '.' && folder !== ''; folder = dirname(folder)) {
    try {
      rmdirSync(join(root, folder));
    } catch {
      break;
    }
  }
}

/** At most `limit` bytes of a file, read by bytes actually read (a size of 0 from stat proves nothing); undefined when larger or unreadable. */
function readBounded(path: string, limit: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    if (!statSync(path).isFile()) return undefined;
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length <= limit; length += read) read = readSync(fd, buffer, length, limit + 1 - length, null);
    return length > limit ? undefined : buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Takes the lock file beside the folder, waiting for a live holder and taking over from a dead one; returns its release. */
function lock(path: string, directory: string): () => void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(error, path, 'create the lock file beside the evidence folder');
    }
    const holder = Number.parseInt(readLock(path), 10);
    // A lock without a pid is being written, unless it is old; a lock whose process is gone is stale.
    if (Number.isInteger(holder) ? !isAlive(holder) : ageMs(path) > 5000) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline)
      throw new UsageError(
        `${shown(directory)}: another mcprely run (process ${holder}) is writing this folder; wait for it, or choose another folder`,
      );
    Atomics.wait(pause, 0, 0, 100);
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readLock(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(0, 20);
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function shown(path: string): string {
  return displayText(path.split(sep).join('/'));
}
