import { loadManifest } from '../manifest/load.js';
import type { RuleSet } from '../rules/load-rules.js';
import { runRules, type RuleSeverities } from '../rules/run-rules.js';
import { applySuppressions } from '../rules/suppressions.js';
import { fileReport, type FileReport } from './file-report.js';
import { problemFindings } from './problem-findings.js';

export interface LintSettings {
  readonly ruleSet: RuleSet;
  /** The rules on for this file and their severities (from the configuration). */
  readonly severities: RuleSeverities;
}

/** Lints the bytes of one manifest file. Pure: the caller reads the file and resolves the configuration. */
export function lintFile(file: string, bytes: Uint8Array, settings: LintSettings): FileReport {
  const loaded = loadManifest(file, bytes);
  if (!loaded.ok) return fileReport(file, problemFindings(file, loaded.text, loaded.problems));
  const findings = runRules(loaded, settings.ruleSet, settings.severities);
  const suppressed = applySuppressions(loaded, findings, new Set(settings.ruleSet.byId.keys()));
  return fileReport(file, [...problemFindings(file, loaded.text, suppressed.problems), ...suppressed.findings]);
}
