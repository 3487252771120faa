import type { Command } from 'commander';

/** `mcprely rules`'s options as commander parses them. */
interface RulesFlags {
  readonly config?: string | boolean;
}

export function registerRules(program: Command): void {
  program
    .command('rules')
    .description('list the rules by area, or print the page of one rule')
    .argument('[id]', 'a rule id')
    .option(
      '-c, --config <file>',
      'configuration whose ruleFolders hold your own rules (default: mcprely.config.yaml in the working directory)',
    )
    .option('--no-config', 'the bundled rules only')
    .action(async (id: string | undefined, options: RulesFlags) => {
      const { runRules } = await import('../rules-command.js');
      process.exitCode = await runRules(id, options.config === true ? undefined : options.config);
    });
}
