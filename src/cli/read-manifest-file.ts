import { readFileSync, statSync } from 'node:fs';
import { makeFinding, type Finding } from '../findings/finding.js';
import { MAX_MANIFEST_BYTES } from '../document/limits.js';

export type FileRead = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly finding: Finding };

/** Reads a manifest named on the command line; anything that is not a readable file becomes a finding. */
export function readManifestFile(file: string): FileRead {
  try {
    const stat = statSync(file);
    if (stat.isDirectory())
      return refuse(
        file,
        'directory',
        'The path is a directory, not a manifest file',
        `pass the manifest files in it, for example ${file.replace(/\/$/, '')}/*.yaml`,
      );
    if (!stat.isFile()) return refuse(file, 'not-a-file', 'The path is not a regular file', 'pass a YAML or JSON manifest file');
    if (stat.size > MAX_MANIFEST_BYTES)
      return refuse(
        file,
        'too-large',
        `The file is ${stat.size} bytes, over the ${MAX_MANIFEST_BYTES}-byte limit for a manifest`,
        'split it into several manifests',
      );
    return { ok: true, bytes: readFileSync(file) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return refuse(file, 'missing', 'No file exists at this path', 'check the path, or run mcprely init to create a manifest');
    if (code === 'EACCES' || code === 'EPERM')
      return refuse(file, 'unreadable', 'The file cannot be read (permission denied)', 'give the current user read access');
    return refuse(file, 'unreadable', `The file cannot be read (${code ?? (error as Error).message})`, 'check the file');
  }
}

function refuse(file: string, messageId: string, message: string, fix: string): FileRead {
  return { ok: false, finding: makeFinding({ ruleId: 'manifest-file', severity: 'error', messageId, message, file, fix }) };
}
