import { verificationsOf, type RuleVerifications } from '../findings/rule-verification.js';
import type { Finding } from '../findings/finding.js';
import { lintLoadedManifest } from '../lint/lint-file.js';
import { problemFindings } from '../lint/problem-findings.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { errorReport } from '../workspace/error-report.js';
import { loadSettings, SettingsError } from '../workspace/load-settings.js';
import { type FileRead, readManifestFile, tooLargeFinding } from '../workspace/read-manifest-file.js';
import { MAX_MANIFEST_BYTES } from '../document/limits.js';

/** A manifest named on the command line, or the report of why it cannot be used (print it, exit 2). */
export type ManifestInput = { readonly ok: true; readonly manifest: LoadedManifest } | { readonly ok: false; readonly report: string };

/** A manifest given as text, read as a file would be: refused as too large past the same bound. */
export function textRead(file: string, content: string | Uint8Array): FileRead {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return bytes.length > MAX_MANIFEST_BYTES ? { ok: false, finding: tooLargeFinding(file) } : { ok: true, bytes };
}

/** A manifest file, or (`content`) a manifest given as its text and reported under `path`. */
export function readManifestInput(path: string, content?: string | Uint8Array): ManifestInput {
  const read = content === undefined ? readManifestFile(path) : textRead(path, content);
  if (!read.ok) return { ok: false, report: errorReport([read.finding]) };
  const loaded = loadManifest(path, read.bytes);
  if (loaded.ok) return { ok: true, manifest: loaded };
  return { ok: false, report: errorReport(problemFindings(path, loaded.text, loaded.problems)) };
}

/** An optional manifest (`--manifest`): none when not given, else the manifest or the report of why it cannot be used. */
export function readOptionalManifest(path: string | undefined): ManifestInput | undefined {
  return path === undefined ? undefined : readManifestInput(path);
}

/**
 * A manifest named on the command line (or given as its text, `content`), linted with the configuration (`config`: a path, false for none,
 * undefined to look in the working directory) — what review and evidence start from.
 */
export async function readLintedManifest(
  path: string,
  config: string | false | undefined,
  content?: string | Uint8Array,
): Promise<
  | {
      readonly ok: true;
      readonly manifest: LoadedManifest;
      readonly findings: Finding[];
      /** Why no fixture can show what some rules report (rule id → its verification). */
      readonly lintOnly: RuleVerifications;
    }
  | { readonly ok: false; readonly report: string }
> {
  const input = readManifestInput(path, content);
  if (!input.ok) return input;
  try {
    const settings = await loadSettings(config, process.cwd());
    const [ruleSet, severitiesFor] = [await settings.ruleSet(), settings.severitiesFor];
    const severities = severitiesFor(path);
    const lintOnly = verificationsOf(ruleSet.rules);
    return { ok: true, manifest: input.manifest, findings: lintLoadedManifest(input.manifest, { ruleSet, severities }), lintOnly };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return { ok: false, report: error.report };
  }
}
