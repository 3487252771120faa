import { relative, resolve } from 'node:path';
import type { Severity } from '../findings/finding.js';
import { applyBaseline, createBaseline, type Baseline } from '../lint/baseline.js';
import { fileReport, type FileReport } from '../lint/file-report.js';
import { lintFile } from '../lint/lint-file.js';
import { exitCodeOf, lintResult } from '../lint/lint-result.js';
import { FORMATTERS } from '../report/formats.js';
import { bundledRules } from '../rules/load-rules.js';
import { reportableRules } from '../rules/rule-descriptors.js';
import { useColor } from './color.js';
import { loadBaseline, loadSeverities, SettingsError, toSlashes } from './load-settings.js';
import type { OutputSpec } from './output-spec.js';
import { readManifestFile } from './read-manifest-file.js';
import { writeOutputFile } from './output-files.js';

export interface LintOptions {
  readonly outputs: readonly OutputSpec[];
  readonly failSeverity: Severity;
  readonly maxWarnings?: number;
  readonly quiet: boolean;
  /** A path, false for --no-config, undefined to look in the working directory. */
  readonly config?: string | false;
  readonly baseline?: string;
  readonly writeBaseline?: string;
}

/** Reads each path, lints it, writes every requested report; returns the exit code. One bad file never stops the others. */
export function runLint(paths: readonly string[], options: LintOptions, toolVersion: string): number {
  const cwd = process.cwd();
  const ruleSet = bundledRules();
  let severitiesFor: ReturnType<typeof loadSeverities>;
  let baseline: Baseline | undefined;
  try {
    severitiesFor = loadSeverities(options.config, ruleSet, cwd);
    baseline = options.baseline === undefined ? undefined : loadBaseline(options.baseline, cwd);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(error.report);
    return 2;
  }

  let reports: FileReport[] = paths.map((path) => {
    const read = readManifestFile(path);
    return read.ok ? lintFile(path, read.bytes, { ruleSet, severities: severitiesFor(path) }) : fileReport(path, [read.finding]);
  });
  const normalise = (file: string) => toSlashes(relative(cwd, resolve(cwd, file)));
  if (options.writeBaseline !== undefined) {
    const written = createBaseline(reports, normalise);
    writeOutputFile(options.writeBaseline, `${JSON.stringify(written, null, 2)}\n`, 'the baseline');
    reports = applyBaseline(reports, written, normalise, options.writeBaseline);
  } else if (baseline !== undefined) {
    reports = applyBaseline(reports, baseline, normalise, options.baseline!);
  }
  if (options.quiet)
    reports = reports.map((report) => ({ ...report, findings: report.findings.filter((finding) => finding.severity === 'error') }));

  const result = lintResult(reports);
  const rules = reportableRules(ruleSet);
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    const text = FORMATTERS[output.format](result, { toolVersion, rules, color });
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  return exitCodeOf(result, {
    failSeverity: options.failSeverity,
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
  });
}
