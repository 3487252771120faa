import { relative, resolve } from 'node:path';
import { GlobError } from '../config/glob.js';
import { displayText } from '../text/display-text.js';
import { expandLintPaths, type LintTargets } from './expand-paths.js';
import type { Severity } from '../findings/finding.js';
import { applyBaseline, createBaseline, type Baseline } from '../lint/baseline.js';
import { fileReport, type FileReport } from '../lint/file-report.js';
import { lintFile } from '../lint/lint-file.js';
import { exitCodeOf, lintResult, type LintResult } from '../lint/lint-result.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { FORMATTERS } from '../report/formats.js';
import { plural } from '../report/plural.js';
import type { RuleSet } from '../rules/load-rules.js';
import { reportableRules } from '../rules/rule-descriptors.js';
import { useColor } from './color.js';
import { loadBaseline, loadSettings, type Settings, SettingsError, toSlashes } from './load-settings.js';
import type { OutputSpec } from './output-spec.js';
import { readManifestFile } from './read-manifest-file.js';
import { ruleDocsBase } from './rule-docs-base.js';
import { type FixedFile, fixReports, unifiedDiff, withReplacements } from './fix-files.js';
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
  /** An http(s) address of the docs/rules/ folder to link rule pages at (default: relative to each report). */
  readonly docsUrl?: string;
  /** SARIF `automationDetails.id` category (default `mcprely`). */
  readonly sarifCategory?: string;
  /** Globs (relative to the working directory) of files and folders to leave out. */
  readonly ignorePatterns?: readonly string[];
  /** Apply the safe fixes: `write` saves the files, `dry-run` prints the diff and leaves them. */
  readonly fix?: 'write' | 'dry-run';
}

/** What linting the paths found, or why it could not start (a bad configuration, baseline or glob: exit 2). */
export type LintRun =
  | {
      readonly ok: true;
      readonly result: LintResult;
      readonly rules: readonly RuleDescriptor[];
      readonly notes: readonly string[];
      /** The files --fix (or --fix-dry-run) changed. */
      readonly fixed: readonly FixedFile[];
    }
  | { readonly ok: false; readonly report: string };

/** What `lint` reads besides the paths: the configuration, the baseline, the ignore patterns, --quiet. */
export type LintSelection = Pick<LintOptions, 'config' | 'baseline' | 'writeBaseline' | 'ignorePatterns' | 'quiet' | 'fix'>;

/**
 * Expands the paths (folders, globs, --ignore-pattern), lints each file with the configuration and applies the
 * baseline. One bad file never stops the others; `notes` are lines for standard error (files left out).
 */
export function lintPaths(paths: readonly string[], options: LintSelection, cwd: string): LintRun {
  let ruleSet: RuleSet;
  let severitiesFor: Settings['severitiesFor'];
  let baseline: Baseline | undefined;
  let targets: LintTargets;
  try {
    ({ ruleSet, severitiesFor } = loadSettings(options.config, cwd));
    baseline = options.baseline === undefined ? undefined : loadBaseline(options.baseline, cwd);
    targets = expandLintPaths(paths, options.ignorePatterns ?? [], cwd);
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, report: error.report };
    if (error instanceof GlobError) return { ok: false, report: `error: --ignore-pattern or a glob given: ${error.message}\n` };
    throw error;
  }
  const notes = targets.ignored.map((file) => `${displayText(file)}: ignored (it matches an --ignore-pattern)`);
  // A run that checked nothing must not pass as clean.
  if (targets.targets.length === 0)
    return {
      ok: false,
      report: `${notes.map((note) => `${note}\n`).join('')}error: nothing to lint: every file given matches an --ignore-pattern\n`,
    };
  let reports: FileReport[] = targets.targets.map((target) => {
    if ('unmatched' in target) return fileReport(target.unmatched.file, [target.unmatched]);
    const path = target.file;
    const read = readManifestFile(resolve(cwd, path));
    return read.ok
      ? lintFile(path, read.bytes, { ruleSet, severities: severitiesFor(resolve(cwd, path)) })
      : fileReport(path, [{ ...read.finding, file: path }]);
  });
  let fixed: FixedFile[] = [];
  if (options.fix !== undefined) {
    const outcome = fixReports(reports, cwd, options.fix, (file, bytes) =>
      lintFile(file, bytes, { ruleSet, severities: severitiesFor(resolve(cwd, file)) }),
    );
    reports = outcome.reports;
    fixed = outcome.fixed;
    notes.push(...outcome.notes);
  }
  const normalise = (file: string) => toSlashes(relative(cwd, resolve(cwd, file)));
  if (options.writeBaseline !== undefined) {
    const written = createBaseline(reports, normalise);
    writeOutputFile(resolve(cwd, options.writeBaseline), `${JSON.stringify(written, null, 2)}\n`, 'the baseline');
    reports = applyBaseline(reports, written, normalise, options.writeBaseline);
  } else if (baseline !== undefined) {
    reports = applyBaseline(reports, baseline, normalise, options.baseline!);
  }
  if (options.quiet)
    reports = reports.map((report) => ({ ...report, findings: report.findings.filter((finding) => finding.severity === 'error') }));
  return { ok: true, result: lintResult(reports), rules: reportableRules(ruleSet), notes, fixed };
}

/** Reads each path, lints it, writes every requested report; returns the exit code. One bad file never stops the others. */
export function runLint(paths: readonly string[], options: LintOptions, toolVersion: string): number {
  const cwd = process.cwd();
  const run = lintPaths(paths, options, cwd);
  if (!run.ok) {
    process.stderr.write(run.report);
    return 2;
  }
  for (const note of run.notes) process.stderr.write(`${note}\n`);
  const { result, rules } = run;
  if (options.fix === 'dry-run') for (const file of run.fixed) process.stdout.write(unifiedDiff(file.file, file.before, file.after));
  if (options.fix !== undefined) {
    const count = run.fixed.reduce((sum, file) => sum + file.fixes, 0);
    const files = run.fixed.length;
    process.stderr.write(`${options.fix === 'write' ? 'fixed' : 'would fix'} ${plural(count, 'value')} in ${plural(files, 'file')}\n`);
  }
  // SARIF carries each safe fix as the text change that makes it; only then are they worked out.
  const sarifResult = options.outputs.some((output) => output.format === 'sarif')
    ? { ...result, files: result.files.map((report) => withReplacements(report, cwd)) }
    : result;
  for (const output of options.outputs) {
    const color = output.file === undefined && useColor(process.stdout);
    const ruleDocs = ruleDocsBase(options.docsUrl, output.file, cwd);
    const text = FORMATTERS[output.format](output.format === 'sarif' ? sarifResult : result, {
      toolVersion,
      rules,
      color,
      sourceRoot: cwd,
      ...(ruleDocs === undefined ? {} : { ruleDocs }),
      ...(options.sarifCategory === undefined ? {} : { category: options.sarifCategory }),
    });
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  return exitCodeOf(result, {
    failSeverity: options.failSeverity,
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
  });
}
