import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { reportInternalError } from './internal-error.js';
import { OutputSpecs } from './output-spec.js';

declare const MCPRELY_VERSION: string;

const SEVERITIES = ['error', 'warn', 'info'];

/** Commander wiring only: each command loads its module when it runs, so `--version` stays fast. */
export function buildProgram(): Command {
  const program = new Command('mcprely')
    .description('Reliability linter and review tool for Model Context Protocol (MCP) servers.')
    .version(MCPRELY_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride();

  const outputs = new OutputSpecs('stylish');
  program
    .command('lint')
    .description('check manifests against the schema and the reliability rules')
    .argument('<paths...>', 'manifest files (.yaml, .yml or .json)')
    .option('-f, --format <name>', 'output format: stylish, json, sarif, github, junit, markdown (repeatable)', collect((name) => outputs.addFormat(name)))
    .option('-o, --output <file>', 'write the preceding --format to a file (repeatable)', collect((file) => outputs.addOutput(file)))
    .addOption(new Option('--fail-severity <level>', 'exit 1 when a finding is at least this severe').choices(SEVERITIES).default('error'))
    .option('--max-warnings <count>', 'exit 1 when there are more warnings than this', parseCount)
    .option('-q, --quiet', 'report errors only', false)
    .option('-c, --config <file>', 'configuration file (default: mcprely.config.yaml in the working directory)')
    .option('--no-config', 'ignore any configuration file; use the recommended preset')
    .option('--baseline <file>', 'report the findings listed in this baseline as suppressed')
    .option('--write-baseline <file>', 'write the current findings to a baseline file')
    .action(async (paths: string[], options: Record<string, unknown>) => {
      const { runLint } = await import('./lint-command.js');
      process.exitCode = runLint(
        paths,
        {
          outputs: outputs.resolve(),
          failSeverity: options['failSeverity'] as 'error' | 'warn' | 'info',
          quiet: options['quiet'] === true,
          ...(options['maxWarnings'] === undefined ? {} : { maxWarnings: options['maxWarnings'] as number }),
          ...(options['config'] === undefined || options['config'] === true ? {} : { config: options['config'] as string | false }),
          ...(typeof options['baseline'] === 'string' ? { baseline: options['baseline'] } : {}),
          ...(typeof options['writeBaseline'] === 'string' ? { writeBaseline: options['writeBaseline'] } : {}),
        },
        MCPRELY_VERSION,
      );
    });

  program
    .command('review')
    .description('write the reliability review of a manifest (exit 1 when not production-ready)')
    .argument('<manifest>', 'a manifest file')
    .addOption(new Option('-f, --format <name>', 'output format').choices(['markdown', 'json']).default('markdown'))
    .option('-o, --output <file>', 'write the review to a file instead of standard output')
    .option('-c, --config <file>', 'configuration file for the lint findings in the review')
    .option('--no-config', 'ignore any configuration file')
    .action(async (manifest: string, options: Record<string, unknown>) => {
      const { runReview } = await import('./review-command.js');
      process.exitCode = runReview(manifest, {
        format: options['format'] as 'markdown' | 'json',
        ...(typeof options['output'] === 'string' ? { output: options['output'] } : {}),
        ...(options['config'] === undefined || options['config'] === true ? {} : { config: options['config'] as string | false }),
      });
    });

  program
    .command('fixtures')
    .description('write the failure fixtures of every operation as data files')
    .argument('<manifest>', 'a manifest file')
    .option('-o, --output <dir>', 'folder to write the fixtures to', 'mcprely-fixtures')
    .action(async (manifest: string, options: { output: string }) => {
      const { runFixtures } = await import('./fixtures-command.js');
      process.exitCode = runFixtures(manifest, options);
    });

  program
    .command('verify')
    .description('run fixtures on the reference implementation and print their transcripts (exit 1 when one fails)')
    .argument('<paths...>', 'a manifest (its fixtures are generated) or fixture files')
    .action(async (paths: string[]) => {
      const { runVerify } = await import('./verify-command.js');
      process.exitCode = await runVerify(paths);
    });

  program
    .command('evidence')
    .description('write the evidence bundle of a manifest: review, fixtures, transcripts and an index')
    .argument('<manifest>', 'a manifest file')
    .requiredOption('-o, --output <dir>', 'folder for the bundle (empty, or an earlier bundle, which is replaced)')
    .action(async (manifest: string, options: { output: string }) => {
      const { runEvidence } = await import('./evidence-command.js');
      process.exitCode = await runEvidence(manifest, options);
    });

  program
    .command('rules')
    .description('list the rules by area, or print the page of one rule')
    .argument('[id]', 'a rule id')
    .action(async (id: string | undefined) => {
      const { runRules } = await import('./rules-command.js');
      process.exitCode = runRules(id);
    });

  return program;
}

/** A repeatable option whose values are handed, in command-line order, to `take`. */
function collect(take: (value: string) => void): (value: string) => true {
  return (value) => {
    try {
      take(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    return true;
  };
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return Number(value);
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; every usage error is 2, as documented.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof Error && error.name === 'UsageError') {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    reportInternalError(error);
  }
}
