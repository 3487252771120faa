import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { readManifestFile } from '../workspace/read-manifest-file.js';

/** A file read from under the working folder, named relative to it; or why it was not read. */
export type FolderRead =
  | { readonly ok: true; readonly file: string; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly message: string };

/** Whether `path` (absolute) lies in `folder` (absolute) or is it. */
function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Reads a manifest that a client names by `path`, relative to `folder` (or absolute inside it). Refused, with what to
 * do: a path with a `..` segment, one outside the folder, one that a symbolic link takes outside it, anything that is
 * not a regular file, a file past the manifest bound. The server reads nothing else.
 */
export function readUnderFolder(folder: string, path: string): FolderRead {
  const outside = `${JSON.stringify(path)} is outside the working folder of mcprely mcp (${folder}): give a path under it, or the manifest's text`;
  if (path.trim() === '') return { ok: false, message: 'the argument path is empty: give a path under the working folder' };
  if (path.split(/[\\/]/).includes('..'))
    return { ok: false, message: `${JSON.stringify(path)} has a .. segment: give a path under the working folder without ..` };
  const target = isAbsolute(path) ? path : resolve(folder, path);
  if (!inside(folder, target)) return { ok: false, message: outside };
  let real: string;
  let realFolder: string;
  try {
    realFolder = realpathSync(folder);
    real = realpathSync(target);
  } catch {
    return { ok: false, message: `no file exists at ${JSON.stringify(path)} under the working folder: check the path` };
  }
  if (!inside(realFolder, real))
    return {
      ok: false,
      message: `${JSON.stringify(path)} is a symbolic link (or passes one) that leads outside the working folder: give the file itself`,
    };
  const read = readManifestFile(real);
  const file = relative(folder, target).split(sep).join('/');
  if (!read.ok)
    return { ok: false, message: `${file}: ${read.finding.message}${read.finding.fix === undefined ? '' : `: ${read.finding.fix}`}` };
  return { ok: true, file, bytes: read.bytes };
}
