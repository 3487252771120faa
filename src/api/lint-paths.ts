import { relative, resolve } from 'node:path';
import { GlobError } from '../config/glob.js';
import { displayText } from '../text/display-text.js';
import { bytesLookLikeManifest, expandLintPaths, type LintTargets } from '../workspace/expand-paths.js';
import { applyBaseline, type Baseline, type BaselineEntry, createBaseline, prunedBaseline, staleEntries } from '../lint/baseline.js';
import { fileReport, type FileReport } from '../lint/file-report.js';
import { lintResult, type LintResult } from '../lint/lint-result.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { plural } from '../text/plural.js';
import type { FixKind } from '../rules/rule-types.js';
import { loadBaseline, loadSettings, type Settings, SettingsError, toSlashes } from '../workspace/load-settings.js';
import { type FileRead, readManifestFile } from '../workspace/read-manifest-file.js';
import type { FixedFile } from '../fix-writer/fix-files.js';
import { LintCache } from '../lint-cache/lint-cache.js';
import { writeOutputFile } from '../workspace/output-files.js';

/** What `lint` reads besides the paths: the configuration, the baseline, the ignore patterns, --quiet, --fix, the cache. */
export interface LintSettingsOptions {
  /** A configuration file, false for none (the recommended preset), undefined to look in the working directory. */
  readonly config?: string | false;
  /** A baseline file: the findings it lists are reported as suppressed. */
  readonly baseline?: string;
  /** Write the findings to this baseline file (then report them as suppressed by it). */
  readonly writeBaseline?: string;
  /** Rewrite the baseline without its stale entries (accepted findings no longer found). */
  readonly pruneBaseline?: boolean;
  /** Globs (relative to the working directory) of files and folders to leave out. */
  readonly ignorePatterns?: readonly string[];
  /** Report errors only. */
  readonly quiet: boolean;
  /** Apply the fixes: `write` saves the files, `dry-run` works out the changes and leaves the files. */
  readonly fix?: 'write' | 'dry-run';
  /** The kinds of fix `fix` applies (default layout alone: a claim change only when asked for). */
  readonly fixTypes?: readonly FixKind[];
  /** Keep each file's report in the lint cache at this location (a file, or a folder) and reuse it while nothing changed. */
  readonly cacheLocation?: string;
}

/** What linting the paths found, or why it could not start (a bad configuration, baseline or glob: exit 2). */
export type LintRun =
  | {
      readonly ok: true;
      readonly result: LintResult;
      /** Every rule the report can name (the rule set compiled and described when first asked for: SARIF, markdown). */
      readonly rules: () => Promise<readonly RuleDescriptor[]>;
      readonly notes: readonly string[];
      /** The files --fix (or --fix-dry-run) changed. */
      readonly fixed: readonly FixedFile[];
      /** The bytes each report was made from (after any fix): later work uses them, not a second read. */
      readonly bytesOf: (file: string) => Uint8Array | undefined;
    }
  | { readonly ok: false; readonly report: string };

/** How `lintPaths` runs: the settings, and what the command line adds (SARIF fixes, streaming, standard input). */
export type LintSelection = LintSettingsOptions & {
  /** Give each fix the text change that makes it (SARIF's `fixes`), worked out while each file's parse is at hand. */
  readonly fixReplacements?: boolean;
  /** mcprely's version, part of the cache key. */
  readonly toolVersion?: string;
  /**
   * Report each file as it is made (baseline and --quiet applied) instead of keeping its findings: given the
   * rules, returns where each report goes. Not with --fix or --write-baseline, which need every report.
   */
  readonly stream?: (rules: readonly RuleDescriptor[]) => (report: FileReport) => void;
  /**
   * One manifest given as bytes (standard input) instead of paths: linted under `file`, whose name picks the
   * configuration's overrides as a path would; never cached (there is no file whose metadata could say it is unchanged).
   */
  readonly input?: { readonly file: string; readonly read: FileRead };
};

/**
 * Expands the paths (folders, globs, --ignore-pattern), lints each file with the configuration, applies the safe
 * fixes when asked, and applies the baseline. One bad file never stops the others; `notes` are lines for
 * standard error (files left out). The fixing code (and the `yaml` package it renders with) is loaded only for
 * --fix, so a plain lint does not pay for it at start-up.
 */
export async function lintPaths(paths: readonly string[], options: LintSelection, cwd: string): Promise<LintRun> {
  let settings: Settings;
  let baseline: Baseline | undefined;
  let targets: LintTargets;
  let cache: LintCache | undefined;
  try {
    settings = await loadSettings(options.config, cwd);
    baseline = options.baseline === undefined ? undefined : await loadBaseline(options.baseline, cwd);
    const opened =
      options.cacheLocation === undefined || options.input !== undefined
        ? undefined
        : LintCache.open(options.cacheLocation, cwd, options.toolVersion ?? 'unknown', settings);
    cache = opened;
    targets =
      options.input === undefined
        ? expandLintPaths(paths, options.ignorePatterns ?? [], cwd, opened && ((path) => opened.knownManifest(path)))
        : { targets: [{ file: options.input.file }], ignored: [] };
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
  const bytes = new Map<string, Uint8Array>();
  const replacements = options.fixReplacements === true ? (await import('../lint/fix-replacements.js')).withFixReplacements : undefined;
  // Only --fix works on the bytes again; otherwise each file's bytes are let go once it is linted.
  const keepBytes = options.fix !== undefined;
  // Each by the file's absolute path, worked out once per file.
  const settingsFor = (absolute: string) => ({
    severities: settings.severitiesFor(absolute),
    fixReplacements: options.fixReplacements === true,
  });
  const lint = (file: string, read: Uint8Array) => {
    if (keepBytes) bytes.set(file, read);
    const absolute = resolve(cwd, file);
    const settings = settingsFor(absolute);
    const cached = cache?.get(absolute, read, settings, file);
    if (cached !== undefined) return cached;
    // Loaded above whenever a file is read (and so before any file can be linted).
    const report = linter!.lintFile(file, read, {
      ruleSet: ruleSet!,
      severities: settings.severities,
      ...(replacements === undefined ? {} : { fixReplacements: replacements }),
    });
    cache?.set(absolute, read, settings, report, bytesLookLikeManifest(file, read));
    return report;
  };
  // An unchanged file (size and time as recorded) is not even read, unless --fix will work on its bytes.
  const unchanged = targets.targets.map((target) => {
    if (cache === undefined || keepBytes || 'unmatched' in target) return undefined;
    const absolute = resolve(cwd, target.file);
    return cache.byMetadata(absolute, settingsFor(absolute), target.file);
  });
  // The linter (reader, schema validation, the rules compiled and run) is loaded only when a file is to be read: a
  // --cache run on files that did not change needs none of it, and starts as fast as mcprely can.
  const [linter, ruleSet] = unchanged.every((hit) => hit !== undefined)
    ? []
    : await Promise.all([import('../lint/lint-file.js'), settings.ruleSet()]);
  let described: Promise<readonly RuleDescriptor[]> | undefined;
  const rules = () => {
    described ??= Promise.all([import('../rules/rule-descriptors.js'), settings.ruleSet()]).then(([{ reportableRules }, set]) =>
      reportableRules(set),
    );
    return described;
  };
  const normalise = (file: string) => toSlashes(relative(cwd, resolve(cwd, file)));
  // Streaming (one SARIF log to a file, no --fix, no new baseline): each report goes out as it is made, with the
  // baseline and --quiet applied, and only its counts are kept.
  const sink = options.stream === undefined ? undefined : options.stream(await rules());
  const counts = { errors: 0, warnings: 0, infos: 0, suppressed: 0, inputErrors: 0 };
  const streamedStale: BaselineEntry[] = [];
  const streamed = (report: FileReport): FileReport => {
    let final = baseline === undefined ? report : applyBaseline([report], baseline, normalise, options.baseline!)[0]!;
    // Entries are keyed by file: what one report leaves unmatched is stale whatever the others hold.
    if (baseline !== undefined) for (const entry of staleEntries([final], baseline, normalise)) streamedStale.push(entry);
    if (options.quiet) final = { ...final, findings: final.findings.filter((finding) => finding.severity === 'error') };
    sink!(final);
    const summary = lintResult([final]).summary;
    for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += summary[key];
    return { file: final.file, inputError: final.inputError, findings: [] };
  };
  let reports: FileReport[] = targets.targets.map((target, index) => {
    const report = unchanged[index] ?? reportOf(target);
    return sink === undefined ? report : streamed(report);
  });
  function reportOf(target: LintTargets['targets'][number]): FileReport {
    if ('unmatched' in target) return fileReport(target.unmatched.file, [target.unmatched]);
    const path = target.file;
    const read = options.input?.file === path ? options.input.read : readManifestFile(resolve(cwd, path));
    return read.ok ? lint(path, read.bytes) : fileReport(path, [{ ...read.finding, file: path }]);
  }
  let fixed: readonly FixedFile[] = [];
  if (options.fix !== undefined) {
    const { fixReports } = await import('../fix-writer/fix-files.js');
    const outcome = fixReports(reports, (file) => bytes.get(file), cwd, options.fix, lint, new Set(options.fixTypes ?? ['layout']));
    reports = outcome.reports;
    fixed = outcome.fixed;
    notes.push(...outcome.notes);
  }
  if (cache !== undefined) {
    cache.save();
    notes.push(
      ...cache.warnings,
      `lint cache: ${cache.hits} of ${plural(cache.hits + cache.misses, 'file')} unchanged (reports from the cache), ${cache.misses} linted`,
    );
  }
  if (sink !== undefined) {
    if (baseline !== undefined) baselineNotes(streamedStale, baseline, options, cwd, notes);
    return {
      ok: true,
      result: { files: reports, summary: { files: reports.length, ...counts } },
      rules,
      notes,
      fixed,
      bytesOf: (file) => bytes.get(file),
    };
  }
  if (options.writeBaseline !== undefined) {
    const written = createBaseline(reports, normalise);
    writeOutputFile(resolve(cwd, options.writeBaseline), `${JSON.stringify(written, null, 2)}\n`, 'the baseline');
    const accepted = written.findings.reduce((sum, entry) => sum + entry.count, 0);
    notes.push(
      `wrote the baseline ${options.writeBaseline}: ${plural(accepted, 'finding')} accepted in ${plural(written.findings.length, 'entry', 'entries')}`,
    );
    reports = applyBaseline(reports, written, normalise, options.writeBaseline);
  } else if (baseline !== undefined) {
    reports = applyBaseline(reports, baseline, normalise, options.baseline!);
    baselineNotes(staleEntries(reports, baseline, normalise), baseline, options, cwd, notes);
  }
  if (options.quiet)
    reports = reports.map((report) => ({ ...report, findings: report.findings.filter((finding) => finding.severity === 'error') }));
  return { ok: true, result: lintResult(reports), rules, notes, fixed, bytesOf: (file) => bytes.get(file) };
}

/** Stale baseline entries: reported, or with --prune-baseline taken out of the baseline file (and said where). */
function baselineNotes(
  stale: readonly BaselineEntry[],
  baseline: Baseline,
  options: Pick<LintSettingsOptions, 'baseline' | 'pruneBaseline'>,
  cwd: string,
  notes: string[],
): void {
  if (stale.length === 0) return;
  const entries = plural(stale.length, 'stale entry', 'stale entries');
  if (options.pruneBaseline === true) {
    writeOutputFile(resolve(cwd, options.baseline!), `${JSON.stringify(prunedBaseline(baseline, stale), null, 2)}\n`, 'the baseline');
    notes.push(`pruned the baseline ${options.baseline}: ${entries} removed (accepted findings no longer found)`);
    return;
  }
  notes.push(
    `the baseline ${options.baseline} has ${entries} (accepted findings no longer found), ` +
      `e.g. ${stale[0]!.file} ${stale[0]!.ruleId} at ${stale[0]!.path || '/'}: remove them with --prune-baseline`,
  );
}
