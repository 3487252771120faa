import { fileReport } from '../lint/file-report.js';
import { lintResult } from '../lint/lint-result.js';
import { problemFindings } from '../lint/problem-findings.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { formatStylish } from '../report/stylish.js';
import { readManifestFile } from './read-manifest-file.js';

/** A manifest named on the command line, or the report of why it cannot be used (print it, exit 2). */
export type ManifestInput = { readonly ok: true; readonly manifest: LoadedManifest } | { readonly ok: false; readonly report: string };

export function readManifestInput(path: string): ManifestInput {
  const read = readManifestFile(path);
  if (!read.ok) return { ok: false, report: formatStylish(lintResult([fileReport(path, [read.finding])]), { color: false }) };
  const loaded = loadManifest(path, read.bytes);
  if (loaded.ok) return { ok: true, manifest: loaded };
  return { ok: false, report: formatStylish(lintResult([fileReport(path, problemFindings(path, loaded.text, loaded.problems))]), { color: false }) };
}
