import { closeSync, constants, lstatSync, mkdirSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { displayText } from '../text/display-text.js';
import { UsageError } from './usage-error.js';

/**
 * Writing what the user asked for, where they asked: every failure a user can cause (a missing folder, a
 * folder where a file was meant, no permission, a full disk, a pipe nobody reads) is a usage error with the
 * place and what to do (exit 2), never an internal error.
 */
export function writeOutputFile(path: string, content: string, what = 'the output'): void {
  requirePath(path, what);
  const existing = statOrUndefined(path);
  if (existing?.isDirectory()) throw new UsageError(`${shown(path)}: is a folder; give ${what} a file name`);
  if (existing?.isFIFO()) requireReader(path);
  try {
    writeFileSync(path, content);
  } catch (error) {
    throw ioError(error, path, `write ${what}`);
  }
}

/**
 * Like writeOutputFile, for output made in pieces: `produce` gives them to `write`, which sends them to the
 * file in blocks of 256 KiB, so the whole output is never one string in memory.
 */
export function writeOutputFileInPieces(path: string, produce: (write: (chunk: string) => void) => void, what = 'the output'): void {
  const file = openOutputFile(path, what);
  try {
    produce(file.write);
  } finally {
    file.close();
  }
}

/** An output file written in pieces as they are made (blocks of 256 KiB); the same errors as writeOutputFile. */
export function openOutputFile(path: string, what = 'the output'): { write(chunk: string): void; close(): void } {
  requirePath(path, what);
  const existing = statOrUndefined(path);
  if (existing?.isDirectory()) throw new UsageError(`${shown(path)}: is a folder; give ${what} a file name`);
  if (existing?.isFIFO()) requireReader(path);
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw ioError(error, path, `write ${what}`);
  }
  // Pieces are copied into one buffer as they come (UTF-8) and the buffer is written when full: no piece is kept
  // as a string, so a large output leaves no strings behind for the garbage collector to promote.
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  let used = 0;
  let closed = false;
  const send = (text: Uint8Array | string) => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    try {
      // A write to a pipe may take fewer bytes than given: the rest follows.
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    } catch (error) {
      throw ioError(error, path, `write ${what}`);
    }
  };
  const flush = () => {
    if (used > 0) send(block.subarray(0, used));
    used = 0;
  };
  return {
    write(chunk) {
      // A UTF-16 code unit is at most 3 bytes of UTF-8: a piece that might not fit goes after a flush.
      if (used + chunk.length * 3 > BLOCK_BYTES) flush();
      if (chunk.length * 3 > BLOCK_BYTES) send(chunk);
      else used += block.write(chunk, used, 'utf8');
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        flush();
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** The size of the blocks an output made in pieces is written in. */
const BLOCK_BYTES = 1 << 18;

/** Makes sure `path` is a folder (creating it and its parents), or says why it cannot be one. */
export function ensureFolder(path: string, what = 'the output folder'): void {
  requirePath(path, what);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw ioError(error, path, `create ${what}`);
  }
  if (!statSync(path).isDirectory()) throw new UsageError(`${shown(path)}: is not a folder; give ${what} a folder name`);
}

/** An empty path would mean the working folder by accident. */
export function requirePath(path: string, what: string): void {
  if (path.trim() === '') throw new UsageError(`${what} is an empty path; give a file or folder name`);
}

/** A failed file-system call in words: what could not be done, where, why, and what to do. */
export function ioError(error: unknown, path: string, action: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    {
      ENOENT: 'a folder on the path does not exist; create it first',
      ENOTDIR: 'a part of the path is a file, not a folder',
      EISDIR: 'it is a folder; give a file name',
      EEXIST: 'something else already exists there',
      EACCES: 'permission denied; choose a place the current user can write',
      EPERM: 'the operation is not permitted there',
      EROFS: 'the file system is read-only',
      ENOSPC: 'no space is left on the device',
      EDQUOT: 'the disk quota is exhausted',
      ENAMETOOLONG: 'a name on the path is too long',
      ELOOP: 'the path has too many symbolic links',
      EBUSY: 'it is busy (in use by another program)',
      ENXIO: 'no process is reading the pipe',
      EMFILE: 'too many files are open',
    }[code ?? ''] ?? `${code ?? (error as Error).message}`;
  return new UsageError(`${shown(path)}: cannot ${action}: ${why}`);
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Writing to a pipe nobody reads would wait for ever: open it without blocking first, which fails at once if so. */
function requireReader(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (error) {
    throw ioError(error, path, 'write to the pipe');
  }
}

/** Whether a path is a symbolic link (not followed). */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function shown(path: string): string {
  return displayText(path);
}
