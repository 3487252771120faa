import { type Command, Option } from 'commander';

/** `mcprely review`'s options as commander parses them. */
interface ReviewFlags {
  readonly format: 'markdown' | 'json' | 'html';
  readonly output?: string;
  readonly config?: string | boolean;
}

export function registerReview(program: Command): void {
  program
    .command('review')
    .description('write the reliability review of a manifest (exit 1 when not production-ready)')
    .argument('<manifest>', 'a manifest file')
    .addOption(
      new Option('-f, --format <name>', 'output format (html: one page that opens offline)')
        .choices(['markdown', 'json', 'html'])
        .default('markdown'),
    )
    .option('-o, --output <file>', 'write the review to a file instead of standard output')
    .option('-c, --config <file>', 'configuration file for the lint findings in the review')
    .option('--no-config', 'ignore any configuration file')
    .action(async (manifest: string, options: ReviewFlags) => {
      const { runReview } = await import('../review-command.js');
      process.exitCode = await runReview(manifest, {
        format: options.format,
        ...(typeof options.output === 'string' ? { output: options.output } : {}),
        ...(options.config === undefined || options.config === true ? {} : { config: options.config }),
      });
    });
}
