import type { Finding } from '../findings/finding.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';
import type { RuleSet } from '../rules/load-rules.js';
import { runRules, type RuleSeverities } from '../rules/run-rules.js';
import { applySuppressions } from '../rules/suppressions.js';
import { fileReport, type FileReport } from './file-report.js';
import { problemFindings } from './problem-findings.js';

export interface LintSettings {
  readonly ruleSet: RuleSet;
  /** The rules on for this file and their severities (from the configuration). */
  readonly severities: RuleSeverities;
  /**
   * Gives each fix the text change that makes it (SARIF's `fixes`): `withFixReplacements`, passed in by a caller
   * that needs it, so a plain lint never loads the fixing code (nor the `yaml` package it renders with).
   */
  readonly fixReplacements?: typeof import('./fix-replacements.js').withFixReplacements;
}

/** Lints the bytes of one manifest file. Pure: the caller reads the file and resolves the configuration. */
export function lintFile(file: string, bytes: Uint8Array, settings: LintSettings): FileReport {
  const loaded = loadManifest(file, bytes);
  if (!loaded.ok) return fileReport(file, problemFindings(file, loaded.text, loaded.problems));
  const findings = lintLoadedManifest(loaded, settings);
  return fileReport(
    file,
    settings.fixReplacements === undefined ? findings : settings.fixReplacements(findings, file, loaded.text, loaded.source),
  );
}

/** The rule findings of a manifest that loaded, suppressions applied (and any unknown rule they name reported). */
export function lintLoadedManifest(loaded: LoadedManifest, settings: LintSettings): Finding[] {
  const findings = runRules(loaded, settings.ruleSet, settings.severities);
  const suppressed = applySuppressions(loaded, findings, settings.ruleSet.ids);
  return [...problemFindings(loaded.file, loaded.text, suppressed.problems), ...suppressed.findings];
}
