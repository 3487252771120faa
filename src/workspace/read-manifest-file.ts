import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { makeFinding, type Finding } from '../findings/finding.js';
import { MAX_MANIFEST_BYTES } from '../document/limits.js';

export type FileRead = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly finding: Finding };

/** Reads a manifest named on the command line; anything that is not a readable file becomes a finding. */
export function readManifestFile(file: string): FileRead {
  let fd: number | undefined;
  try {
    // A pipe or a device is refused before it is opened: opening a pipe nobody writes would wait for ever.
    const first = statSync(file);
    if (!first.isFile() && !first.isDirectory())
      return refuse(file, 'not-a-file', 'The path is not a regular file', 'pass a YAML or JSON manifest file');
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      return refuse(
        file,
        'directory',
        'The path is a directory, not a manifest file',
        `pass the manifest files in it, for example ${file.replace(/\/$/, '')}/*.yaml`,
      );
    if (!stat.isFile()) return refuse(file, 'not-a-file', 'The path is not a regular file', 'pass a YAML or JSON manifest file');
    // The bound is on the bytes actually read: stat's size proves nothing (/proc files say 0 and hold gigabytes).
    const bytes = readAtMost(fd, MAX_MANIFEST_BYTES + 1);
    if (bytes.length > MAX_MANIFEST_BYTES) return { ok: false, finding: tooLargeFinding(file) };
    return { ok: true, bytes };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return refuse(file, 'missing', 'No file exists at this path', 'check the path, or run mcprely init to create a manifest');
    if (code === 'EACCES' || code === 'EPERM')
      return refuse(file, 'unreadable', 'The file cannot be read (permission denied)', 'give the current user read access');
    if (code === 'EISDIR')
      return refuse(file, 'directory', 'The path is a directory, not a manifest file', 'pass the manifest files in it');
    return refuse(file, 'unreadable', `The file cannot be read (${code ?? (error as Error).message})`, 'check the file');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads until the end of the file or `limit` bytes, whichever comes first. */
function readAtMost(fd: number, limit: number): Uint8Array {
  const buffer = Buffer.allocUnsafe(limit);
  let length = 0;
  while (length < limit) {
    const read = readSync(fd, buffer, length, Math.min(64 * 1024, limit - length), null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

function refuse(file: string, messageId: string, message: string, fix: string): FileRead {
  return { ok: false, finding: fileFinding(file, messageId, message, fix) };
}

/** A manifest over the size limit (read from a file, or held by an editor). */
export function tooLargeFinding(file: string): Finding {
  return fileFinding(
    file,
    'too-large',
    `The file is over the ${MAX_MANIFEST_BYTES}-byte limit for a manifest`,
    'split it into several manifests',
  );
}

/** A path that cannot be used as a manifest file (missing, a folder, a glob that found nothing, …): exit 2. */
export function fileFinding(file: string, messageId: string, message: string, fix: string): Finding {
  return makeFinding({ ruleId: 'manifest-file', severity: 'error', messageId, message, file, fix });
}
