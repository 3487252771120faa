import { Command, CommanderError, Option } from 'commander';
import { reportInternalError } from './internal-error.js';

declare const MCPRELY_VERSION: string;

/** Commander wiring only: each command loads its module when it runs, so `--version` stays fast. */
export function buildProgram(): Command {
  const program = new Command('mcprely')
    .description('Reliability linter and review tool for Model Context Protocol (MCP) servers.')
    .version(MCPRELY_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride();

  program
    .command('lint')
    .description('check manifests against the schema and the reliability rules')
    .argument('<paths...>', 'manifest files (.yaml, .yml or .json)')
    .addOption(new Option('-f, --format <name>', 'output format').choices(['stylish', 'json']).default('stylish'))
    .option('-o, --output <file>', 'write the report to a file instead of standard output')
    .action(async (paths: string[], options: { format: 'stylish' | 'json'; output?: string }) => {
      const { runLint } = await import('./lint-command.js');
      process.exitCode = runLint(paths, options, MCPRELY_VERSION);
    });

  return program;
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
    reportInternalError(error);
  }
}
