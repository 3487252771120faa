import type { Command } from 'commander';
import type { Severity } from '../../findings/finding.js';
import { DEFAULT_CACHE_LOCATION } from '../../lint-cache/cache-location.js';
import { FIX_KINDS, type FixKind } from '../../rules/rule-types.js';
import { displayText } from '../../text/display-text.js';
import { parseDocsUrl } from '../../workspace/rule-docs-base.js';
import { UsageError } from '../../workspace/usage-error.js';
import { parseCount } from '../live-options.js';
import { OutputSpecs } from '../output-spec.js';
import { asUsage, failSeverityOption } from './option-parsers.js';
import { formatOption, outputOption } from './output-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely lint`'s options as commander parses them. */
interface LintFlags {
  readonly failSeverity: Severity;
  readonly maxWarnings?: number;
  readonly quiet: boolean;
  /** A path, false for --no-config, true (commander's default of --no-config) or absent: look in the working directory. */
  readonly config?: string | boolean;
  readonly baseline?: string;
  readonly writeBaseline?: string;
  readonly pruneBaseline: boolean;
  readonly ignorePattern?: string[];
  readonly cache: boolean;
  readonly cacheLocation?: string;
  readonly stdin: boolean;
  readonly stdinFilename?: string;
  readonly fix: boolean;
  readonly fixDryRun: boolean;
  readonly fixType?: FixKind[];
  readonly docsUrl?: string;
  readonly sarifCategory?: string;
}

export function registerLint(program: Command): void {
  const outputs = new OutputSpecs('stylish');
  program
    .command('lint')
    .description('check manifests against the schema and the reliability rules')
    .argument('[paths...]', 'manifest files (.yaml, .yml or .json), folders to search, or quoted globs; - for standard input')
    .addOption(formatOption(outputs))
    .addOption(outputOption(outputs))
    .addOption(failSeverityOption('exit 1 when a finding is at least this severe', 'error'))
    .option('--max-warnings <count>', 'exit 1 when there are more warnings than this', parseCount)
    .option('-q, --quiet', 'report errors only', false)
    .option('-c, --config <file>', 'configuration file (default: mcprely.config.yaml in the working directory)')
    .option('--no-config', 'ignore any configuration file; use the recommended preset')
    .option('--baseline <file>', 'report the findings listed in this baseline as suppressed')
    .option('--write-baseline <file>', 'write the current findings to a baseline file')
    .option('--prune-baseline', 'rewrite the --baseline file without its stale entries (accepted findings no longer found)', false)
    .option(
      '--ignore-pattern <glob>',
      'leave out files and folders matching this glob (relative to the working directory; repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--cache',
      `reuse the reports of files that did not change since the last --cache run (kept in ${DEFAULT_CACHE_LOCATION})`,
      false,
    )
    .option('--cache-location <path>', 'the lint cache file, or a folder to keep it in (implies --cache)')
    .option('--stdin', 'lint one manifest read from standard input (as the path -)', false)
    .option(
      '--stdin-filename <path>',
      'with --stdin: the name findings are reported under and configuration overrides match (default <stdin>)',
    )
    .option('--fix', 'apply the layout fixes to the files (comments, order and quoting kept; no claim changes)', false)
    .option('--fix-dry-run', 'print the fixes as a diff on standard output (the report goes to standard error), changing no file', false)
    .option(
      '--fix-type <kinds>',
      'the kinds of fix --fix applies, comma-separated: layout (the default), claim (a value that says what the server does)',
      asUsage(parseFixTypes),
    )
    .option('--docs-url <url>', 'link rule pages at this docs/rules/ address (default: relative to the report)', asUsage(parseDocsUrl))
    .option('--sarif-category <name>', 'SARIF automationDetails category, one per manifest set (default: mcprely)', asUsage(parseCategory))
    .action(async (paths: string[], options: LintFlags) => {
      if (options.fixType !== undefined && options.fix !== true && options.fixDryRun !== true)
        throw new UsageError('--fix-type goes with --fix or --fix-dry-run');
      const stdin = stdinOf(paths, options);
      const { runLint } = await import('../lint-command.js');
      process.exitCode = await runLint(
        stdin === undefined ? paths : [],
        {
          ...(stdin === undefined ? {} : { stdin }),
          outputs: outputs.resolve(),
          failSeverity: options.failSeverity,
          quiet: options.quiet === true,
          ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
          ...(options.config === undefined || options.config === true ? {} : { config: options.config }),
          ...(typeof options.baseline === 'string' ? { baseline: options.baseline } : {}),
          ...(typeof options.writeBaseline === 'string' ? { writeBaseline: options.writeBaseline } : {}),
          ...(options.pruneBaseline === true ? { pruneBaseline: true } : {}),
          ...(typeof options.docsUrl === 'string' ? { docsUrl: options.docsUrl } : {}),
          ...(Array.isArray(options.ignorePattern) ? { ignorePatterns: options.ignorePattern } : {}),
          ...(options.fixDryRun === true ? { fix: 'dry-run' as const } : options.fix === true ? { fix: 'write' as const } : {}),
          ...(Array.isArray(options.fixType) ? { fixTypes: options.fixType } : {}),
          ...(typeof options.sarifCategory === 'string' ? { sarifCategory: options.sarifCategory } : {}),
          ...(typeof options.cacheLocation === 'string'
            ? { cacheLocation: options.cacheLocation }
            : options.cache === true
              ? { cacheLocation: DEFAULT_CACHE_LOCATION }
              : {}),
        },
        MCPRELY_VERSION,
      );
    });
}

/**
 * `lint --stdin [--stdin-filename name]` or `lint -`: one manifest from standard input, reported under the name
 * given (default `<stdin>`). --fix is refused (there is no file to write; --fix-dry-run shows the diff), and
 * standard input cannot be mixed with paths. Without it, at least one path is required.
 */
function stdinOf(paths: readonly string[], options: LintFlags): { filename: string } | undefined {
  const dash = paths.includes('-');
  const named = typeof options.stdinFilename === 'string' ? options.stdinFilename : undefined;
  if (options.stdin !== true && !dash) {
    if (named !== undefined) throw new UsageError('--stdin-filename names standard input: give it with --stdin (or the path -)');
    if (paths.length === 0)
      throw new UsageError("missing required argument 'paths' (or give --stdin to read a manifest from standard input)");
    return undefined;
  }
  if (paths.some((path) => path !== '-') || paths.length > 1)
    throw new UsageError('standard input (--stdin or -) is one manifest: give no other paths with it');
  if (options.fix === true)
    throw new UsageError('--fix writes files, and standard input is not one: use --fix-dry-run to print the fixes as a diff');
  if (named !== undefined && named.trim() === '') throw new UsageError('--stdin-filename is empty; give the name to report findings under');
  return { filename: named ?? '<stdin>' };
}

/** --fix-type's kinds: `layout`, `claim` or both, comma-separated (ESLint's --fix-type). */
function parseFixTypes(value: string): FixKind[] {
  const kinds = value.split(',').map((kind) => kind.trim());
  for (const kind of kinds)
    if (!(FIX_KINDS as readonly string[]).includes(kind))
      throw new Error(`"${displayText(kind)}" is not a kind of fix; use ${FIX_KINDS.join(', ')} (comma-separated)`);
  return [...new Set(kinds as FixKind[])];
}

/** A SARIF category: letters, digits and `-_.`, with `/` between parts; never empty or ending in `/`. */
function parseCategory(value: string): string {
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(value) || value.length > 200)
    throw new Error('a category is letters, digits, "-", "_" and "." in parts joined by "/", at most 200 characters');
  return value;
}
