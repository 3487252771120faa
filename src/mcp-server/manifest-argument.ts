import { isProblem, optionalString } from './tool-arguments.js';
import { readUnderFolder } from './working-folder.js';

/** The name a manifest given as text is reported under. */
export const TEXT_MANIFEST = 'manifest.yaml';

/** The two ways a tool takes a manifest, as input schema properties. */
export const MANIFEST_PROPERTIES = {
  manifest: { type: 'string', description: "the manifest's YAML (or JSON) text" },
  path: { type: 'string', description: 'or: a manifest file under the working folder of mcprely mcp (relative to it)' },
} as const;

/** A manifest a tool was given: its name for findings and its bytes; or what to do instead. */
export type ManifestArgument =
  | { readonly ok: true; readonly file: string; readonly content: Uint8Array }
  | { readonly ok: false; readonly message: string };

/** The manifest of a call: exactly one of `manifest` (its text) and `path` (a file under the working folder). */
export function manifestArgument(args: Readonly<Record<string, unknown>>, folder: string): ManifestArgument {
  const text = optionalString(args, 'manifest');
  const path = optionalString(args, 'path');
  if (isProblem(text)) return { ok: false, message: text.problem };
  if (isProblem(path)) return { ok: false, message: path.problem };
  if ((text === undefined) === (path === undefined))
    return { ok: false, message: "give exactly one of manifest (the manifest's text) and path (a manifest file under the working folder)" };
  if (text !== undefined) return { ok: true, file: TEXT_MANIFEST, content: new TextEncoder().encode(text) };
  const read = readUnderFolder(folder, path as string);
  return read.ok ? { ok: true, file: read.file, content: read.bytes } : read;
}
