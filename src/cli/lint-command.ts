import { relative, resolve } from 'node:path';
import { MAX_MANIFEST_BYTES } from '../document/limits.js';
import { GlobError } from '../config/glob.js';
import { displayText } from '../text/display-text.js';
import { bytesLookLikeManifest, expandLintPaths, type LintTargets } from '../workspace/expand-paths.js';
import type { Severity } from '../findings/finding.js';
import { applyBaseline, type Baseline, type BaselineEntry, createBaseline, prunedBaseline, staleEntries } from '../lint/baseline.js';
import { fileReport, type FileReport } from '../lint/file-report.js';
import { exitCodeOf, lintResult, type LintResult } from '../lint/lint-result.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { FORMATTERS } from '../report/formats.js';
import { FORMATS_NAMING_RULES } from '../report/format-names.js';
import { writeJson } from '../report/json.js';
import { sarifWriter, writeSarif } from '../report/sarif.js';
import { plural } from '../text/plural.js';
import type { FixKind } from '../rules/rule-types.js';
import { useColor } from './color.js';
import { loadBaseline, loadSettings, type Settings, SettingsError, toSlashes } from '../workspace/load-settings.js';
import type { OutputSpec } from './output-spec.js';
import { type FileRead, readManifestFile, tooLargeFinding } from '../workspace/read-manifest-file.js';
import { ruleDocsBase } from '../workspace/rule-docs-base.js';
import type { FixedFile } from '../fix-writer/fix-files.js';
import { LintCache } from '../lint-cache/lint-cache.js';
import { openOutputFile, writeOutputFile, writeOutputFileInPieces } from '../workspace/output-files.js';

export interface LintOptions {
  readonly outputs: readonly OutputSpec[];
  readonly failSeverity: Severity;
  readonly maxWarnings?: number;
  readonly quiet: boolean;
  /** A path, false for --no-config, undefined to look in the working directory. */
  readonly config?: string | false;
  readonly baseline?: string;
  readonly writeBaseline?: string;
  /** Rewrite the baseline (--baseline) without its stale entries. */
  readonly pruneBaseline?: boolean;
  /** An http(s) address of the docs/rules/ folder to link rule pages at (default: relative to each report). */
  readonly docsUrl?: string;
  /** SARIF `automationDetails.id` category (default `mcprely`). */
  readonly sarifCategory?: string;
  /** Globs (relative to the working directory) of files and folders to leave out. */
  readonly ignorePatterns?: readonly string[];
  /** Apply the fixes: `write` saves the files, `dry-run` prints the diff and leaves them. */
  readonly fix?: 'write' | 'dry-run';
  /** The kinds of fix --fix applies (`--fix-type`; default layout alone: a claim change only when asked for). */
  readonly fixTypes?: readonly FixKind[];
  /** Keep each file's report in the lint cache at this location (a file, or a folder) and reuse it while nothing changed. */
  readonly cacheLocation?: string;
  /** Lint one manifest from standard input (no paths), reported under this name (--stdin-filename, default `<stdin>`). */
  readonly stdin?: { readonly filename: string };
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

/** What `lint` reads besides the paths: the configuration, the baseline, the ignore patterns, --quiet. */
export type LintSelection = Pick<
  LintOptions,
  'config' | 'baseline' | 'writeBaseline' | 'pruneBaseline' | 'ignorePatterns' | 'quiet' | 'fix' | 'fixTypes' | 'cacheLocation'
> & {
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
  options: Pick<LintOptions, 'baseline' | 'pruneBaseline'>,
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

/** Reads each path, lints it, writes every requested report; returns the exit code. One bad file never stops the others. */
export async function runLint(paths: readonly string[], options: LintOptions, toolVersion: string): Promise<number> {
  const cwd = process.cwd();
  const contextOf = (output: OutputSpec, rules: readonly RuleDescriptor[]) => {
    const ruleDocs = ruleDocsBase(options.docsUrl, output.file, cwd);
    return {
      toolVersion,
      rules,
      color: output.file === undefined && useColor(options.fix === 'dry-run' ? process.stderr : process.stdout),
      sourceRoot: cwd,
      ...(ruleDocs === undefined ? {} : { ruleDocs }),
      ...(options.sarifCategory === undefined ? {} : { category: options.sarifCategory }),
    };
  };
  // One SARIF log to a file (and no --fix or new baseline, which need every report): written while linting, so
  // no report is kept once it is written and memory does not grow with the findings.
  const only = options.outputs.length === 1 ? options.outputs[0]! : undefined;
  const streamTo =
    only?.format === 'sarif' && only.file !== undefined && options.fix === undefined && options.writeBaseline === undefined
      ? only
      : undefined;
  let streaming: { writer: ReturnType<typeof sarifWriter>; file: ReturnType<typeof openOutputFile> } | undefined;
  const stream =
    streamTo === undefined
      ? undefined
      : (rules: readonly RuleDescriptor[]) => {
          const file = openOutputFile(streamTo.file!);
          streaming = { writer: sarifWriter(contextOf(streamTo, rules), file.write), file };
          return (report: FileReport) => streaming!.writer.file(report);
        };
  const input =
    options.stdin === undefined ? undefined : { file: options.stdin.filename, read: await readStandardInput(options.stdin.filename) };
  let run: LintRun;
  try {
    run = await lintPaths(
      paths,
      {
        ...options,
        ...(input === undefined ? {} : { input }),
        fixReplacements: options.outputs.some((output) => output.format === 'sarif'),
        toolVersion,
        ...(stream === undefined ? {} : { stream }),
      },
      cwd,
    );
    streaming?.writer.end();
  } finally {
    streaming?.file.close();
  }
  if (!run.ok) {
    process.stderr.write(run.report);
    return 2;
  }
  for (const note of run.notes) process.stderr.write(`${note}\n`);
  const { result } = run;
  const fixing = options.fix !== undefined ? await import('../fix-writer/fix-files.js') : undefined;
  if (options.fix === 'dry-run')
    for (const file of run.fixed) process.stdout.write(fixing!.unifiedDiff(file.file, file.before, file.after));
  if (options.fix !== undefined) {
    const count = run.fixed.reduce((sum, file) => sum + file.fixes, 0);
    const files = run.fixed.length;
    process.stderr.write(`${options.fix === 'write' ? 'fixed' : 'would fix'} ${plural(count, 'value')} in ${plural(files, 'file')}\n`);
    const todos = run.fixed.flatMap((file) => file.todos);
    if (todos.length > 0) {
      // A claim change makes the manifest say something new about the server: the code has to follow.
      process.stderr.write(`${options.fix === 'write' ? 'to do' : 'to do, if applied'}: the manifest claims what the code must now do\n`);
      for (const todo of todos) process.stderr.write(`  ${todo}\n`);
    }
  }
  for (const output of options.outputs) {
    if (output === streamTo) continue; // written while linting
    const context = contextOf(output, FORMATS_NAMING_RULES.has(output.format) ? await run.rules() : []);
    // A SARIF log or JSON report can be tens of megabytes: to a file it is written as it is made.
    const pieces = output.format === 'sarif' ? writeSarif : output.format === 'json' ? writeJson : undefined;
    if (pieces !== undefined && output.file !== undefined) {
      writeOutputFileInPieces(output.file, (write) => pieces(result, context, write));
      continue;
    }
    const text = FORMATTERS[output.format](result, context);
    // --fix-dry-run keeps standard output for the diff alone: the report of what is left goes to standard error.
    if (output.file === undefined) (options.fix === 'dry-run' ? process.stderr : process.stdout).write(text);
    else writeOutputFile(output.file, text);
  }
  return exitCodeOf(result, {
    failSeverity: options.failSeverity,
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
  });
}

/** Standard input, read to its end or to one byte past the manifest limit (then it is refused as too large, as a file would be). */
async function readStandardInput(file: string): Promise<FileRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_MANIFEST_BYTES) {
      process.stdin.destroy();
      return { ok: false, finding: tooLargeFinding(file) };
    }
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}
