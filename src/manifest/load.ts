import { resolveOperations, type ResolvedOperation } from './resolved-operation.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import type { DocumentProblem } from '../document/problem.js';
import type { MappingSource } from '../document/source-map.js';
import type { Manifest } from './types.js';
import { validateManifestData } from './validate-manifest.js';

export interface LoadedManifest {
  readonly ok: true;
  readonly file: string;
  readonly text: string;
  readonly manifest: Manifest;
  readonly source: MappingSource;
  /** Operations with `defaults` merged in, in manifest order. */
  readonly operations: readonly ResolvedOperation[];
}

export interface RejectedManifest {
  readonly ok: false;
  readonly file: string;
  /** The text as far as it could be decoded, for placing the problems. */
  readonly text: string;
  readonly problems: readonly DocumentProblem[];
}

export type ManifestLoad = LoadedManifest | RejectedManifest;

/** Bytes of one file to a validated manifest, or to every problem that stops it being one. Pure. */
export function loadManifest(file: string, bytes: Uint8Array): ManifestLoad {
  const parsed = parseDocumentBytes(file, bytes);
  if (!parsed.ok) return { ok: false, file, text: parsed.text, problems: parsed.problems };
  const { value, source } = parsed.document;
  const problems = validateManifestData(value, source);
  if (problems.length > 0) return { ok: false, file, text: parsed.text, problems };
  const manifest = value as Manifest;
  const root = source as MappingSource;
  return { ok: true, file, text: parsed.text, manifest, source: root, operations: resolveOperations(manifest, root) };
}
