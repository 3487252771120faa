import type { Command } from 'commander';

/** `mcprely fixtures`'s options as commander parses them. */
interface FixturesFlags {
  readonly output: string;
}

export function registerFixtures(program: Command): void {
  program
    .command('fixtures')
    .description('write the failure fixtures of every operation as data files')
    .argument('<manifest>', 'a manifest file')
    .option('-o, --output <dir>', 'folder to write the fixtures to', 'mcprely-fixtures')
    .action(async (manifest: string, options: FixturesFlags) => {
      const { runFixtures } = await import('../fixtures-command.js');
      process.exitCode = runFixtures(manifest, options);
    });
}
