import { verificationsOf, type RuleVerifications } from '../findings/rule-verification.js';
import type { Finding } from '../findings/finding.js';
import { lintLoadedManifest } from '../lint/lint-file.js';
import { problemFindings } from '../lint/problem-findings.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import { errorReport } from '../workspace/error-report.js';
import { loadSettings, SettingsError } from '../workspace/load-settings.js';
import { readManifestFile } from '../workspace/read-manifest-file.js';

/** A manifest named on the command line, or the report of why it cannot be used (print it, exit 2). */
export type ManifestInput = { readonly ok: true; readonly manifest: LoadedManifest } | { readonly ok: false; readonly report: string };

export function readManifestInput(path: string): ManifestInput {
  const read = readManifestFile(path);
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
 * A manifest named on the command line, linted with the configuration (`config`: a path, false for none,
 * undefined to look in the working directory) — what review and evidence start from.
 */
export async function readLintedManifest(
  path: string,
  config: string | false | undefined,
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
  const input = readManifestInput(path);
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
