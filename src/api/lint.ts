import { resolve } from 'node:path';
import type { Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import type { FixedFile } from '../fix-writer/fix-files.js';
import { exitCodeOf, type LintResult } from '../lint/lint-result.js';
import { textRead } from './manifest-input.js';
import { type LintSettingsOptions, lintPaths } from './lint-paths.js';

declare const MCPRELY_VERSION: string | undefined;
/** mcprely's version (defined by the build; 'source' when run from the sources): the lint cache keys on it as the CLI's does. */
const TOOL_VERSION = typeof MCPRELY_VERSION === 'string' ? MCPRELY_VERSION : 'source';

/** What to lint, and how: `mcprely lint`'s options as values. */
export interface LintOptions extends Omit<LintSettingsOptions, 'quiet'> {
  /** Manifest files (.yaml, .yml or .json), folders to search, or globs; relative to `cwd`. */
  readonly paths: readonly string[];
  /** One manifest given as its text instead of `paths`, reported under `file` (whose name picks the configuration's overrides). */
  readonly text?: { readonly file: string; readonly content: string | Uint8Array };
  /** The folder paths, globs, the configuration and the reports are relative to (default: `process.cwd()`). */
  readonly cwd?: string;
  /** Report errors only (default false). */
  readonly quiet?: boolean;
  /** `exitCode` is 1 when a finding is at least this severe (default `error`). */
  readonly failSeverity?: Severity;
  /** `exitCode` is 1 when there are more warnings than this (default: no limit). */
  readonly maxWarnings?: number;
}

/** What linting found, or why it could not start. */
export type LintOutcome =
  | {
      readonly ok: true;
      /** Each file's findings (baseline and `quiet` applied) and the counts. */
      readonly result: LintResult;
      /** The exit code `mcprely lint` would give: 2 when a file is unusable, 1 when findings fail the run, else 0. */
      readonly exitCode: 0 | 1 | 2;
      /** Lines worth telling the user (files ignored, the cache's counts, the baseline's stale entries). */
      readonly notes: readonly string[];
      /** The files `fix` changed (or, with `dry-run`, would change): the text before and after. */
      readonly fixed: readonly FixedFile[];
      /** Every rule the result can name, described (loaded when first asked for). */
      readonly rules: () => Promise<readonly RuleDescriptor[]>;
    }
  | {
      readonly ok: false;
      /** Why nothing was linted (a bad configuration, baseline or glob; nothing left to lint), as lines of text. */
      readonly problem: string;
    };

/**
 * Lints manifests: expands the paths (folders, globs, `ignorePatterns`), checks each file against the schema and
 * the rules of the configuration, applies the fixes when asked, and applies the baseline. One bad file never
 * stops the others: it is a file report with an input error. Prints nothing and never exits.
 *
 * @example
 * const outcome = await lint({ paths: ['mcprely.yaml'] });
 * if (outcome.ok) console.log(outcome.result.summary.errors, 'errors');
 */
export async function lint(options: LintOptions): Promise<LintOutcome> {
  const cwd = options.cwd === undefined ? process.cwd() : resolve(options.cwd);
  const { paths, text, cwd: _cwd, failSeverity, maxWarnings, ...settings } = options;
  const input = text === undefined ? undefined : { file: text.file, read: textRead(text.file, text.content) };
  const run = await lintPaths(
    input === undefined ? paths : [],
    { ...settings, quiet: options.quiet === true, toolVersion: TOOL_VERSION, ...(input === undefined ? {} : { input }) },
    cwd,
  );
  if (!run.ok) return { ok: false, problem: run.report };
  const exitCode = exitCodeOf(run.result, {
    failSeverity: failSeverity ?? 'error',
    ...(maxWarnings === undefined ? {} : { maxWarnings }),
  });
  return { ok: true, result: run.result, exitCode, notes: run.notes, fixed: run.fixed, rules: run.rules };
}
