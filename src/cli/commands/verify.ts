import { type Command, Option } from 'commander';
import { UsageError } from '../../workspace/usage-error.js';
import { addLiveOptions, HEADER_WITHOUT_URL, type LiveFlags, liveOptionsFrom, quietFrom } from '../live-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely verify`'s options as commander parses them. */
interface VerifyFlags extends LiveFlags {
  readonly format: 'text' | 'json' | 'junit';
  readonly output?: string;
  readonly stdio?: string;
  readonly url?: string;
  readonly databaseUrl?: string;
}

export function registerVerify(program: Command): void {
  const verify = program
    .command('verify')
    .description('run fixtures on the reference implementation and print their transcripts (exit 1 when one fails)')
    .argument('<paths...>', 'a manifest (its fixtures are generated) or fixture files')
    .addOption(
      new Option('-f, --format <name>', 'text (transcripts), json or junit (a test case per fixture)')
        .choices(['text', 'json', 'junit'])
        .default('text'),
    )
    .option('-o, --output <file>', 'write the report to a file instead of standard output')
    .option('--stdio <command>', "run the manifest's fixtures against this server, over stdio (no shell)")
    .option('--url <endpoint>', "run the manifest's fixtures against the server at this Streamable HTTP endpoint");
  addLiveOptions(verify, 'live: also run the key fixtures, calling the keyed mutation twice with one key')
    .option(
      '--database-url <url>',
      'run the fixtures of ledgers the manifest keeps in PostgreSQL on this database (default: MCPRELY_DATABASE_URL; else SQLite stands in)',
    )
    .action(async (paths: string[], options: VerifyFlags) => {
      if (typeof options.stdio === 'string' || typeof options.url === 'string') {
        const { runLiveVerify } = await import('../live-verify.js');
        process.exitCode = await runLiveVerify(
          paths,
          {
            ...(typeof options.stdio === 'string' ? { stdio: options.stdio } : {}),
            ...(typeof options.url === 'string' ? { url: options.url } : {}),
            ...liveOptionsFrom(options),
            ...quietFrom(options),
            format: options.format,
            ...(typeof options.output === 'string' ? { output: options.output } : {}),
          },
          MCPRELY_VERSION,
        );
        return;
      }
      if (options.header !== undefined) throw new UsageError(HEADER_WITHOUT_URL);
      const { runVerify } = await import('../verify-command.js');
      const databaseUrl = typeof options.databaseUrl === 'string' ? options.databaseUrl : process.env['MCPRELY_DATABASE_URL'] || undefined;
      process.exitCode = await runVerify(
        paths,
        {
          format: options.format,
          ...(typeof options.output === 'string' ? { output: options.output } : {}),
          ...(databaseUrl === undefined ? {} : { databaseUrl }),
        },
        MCPRELY_VERSION,
      );
    });
}
