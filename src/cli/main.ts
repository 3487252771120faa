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
