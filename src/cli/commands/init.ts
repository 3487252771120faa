import { type Command, Option } from 'commander';
import { SPEC_VERSIONS, type SpecVersion } from '../../spec/revisions.js';
import { type HeaderFlags, headerOption, headersFrom, parsePositive } from '../live-options.js';

/** `mcprely init`'s options as commander parses them. */
interface InitFlags extends HeaderFlags {
  readonly template: boolean;
  readonly transport: 'stdio' | 'streamable-http' | 'both';
  readonly fromStdio?: string;
  readonly fromUrl?: string;
  readonly specVersion?: SpecVersion;
  readonly output?: string;
  readonly force: boolean;
  readonly observe: boolean;
  readonly allowMutations: boolean;
  readonly maxTime?: number;
  readonly quiet: boolean;
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description("write a starting manifest from a running server's tools/list, or a commented template without one")
    .option('--template', 'write a commented template, every decision visible, without a server', false)
    .addOption(
      new Option('--transport <name>', 'with --template: the transports the server offers')
        .choices(['stdio', 'streamable-http', 'both'])
        .default('both'),
    )
    .option('--from-stdio <command>', 'run this command and ask it over stdio (no shell)')
    .option('--from-url <endpoint>', 'ask the server at this Streamable HTTP endpoint')
    .addOption(headerOption('with --from-url: send this header ("Authorization: Bearer …") on every request'))
    .addOption(new Option('--spec-version <revision>', 'protocol revision to speak').choices([...SPEC_VERSIONS]))
    .option('-o, --output <file>', 'write the manifest here instead of standard output (never over an existing file)')
    .option('--force', 'with --output: overwrite the file if it exists', false)
    .option('--observe', 'with --from-stdio/--from-url: probe each read-only tool and write what was seen as its claims', false)
    .option('--allow-mutations', 'with --observe: probe the tools that may change state too (named on stderr first)', false)
    .option('--max-time <ms>', "with --observe: each tool's probe budget, in ms (default 60 000)", parsePositive)
    .option('--quiet', 'with --observe: no line on standard error as each probe check starts and ends', false)
    .action(async (options: InitFlags) => {
      const { runInit } = await import('../init-command.js');
      process.exitCode = await runInit({
        ...(options.template === true ? { template: options.transport } : {}),
        ...(typeof options.fromStdio === 'string' ? { stdio: options.fromStdio } : {}),
        ...(typeof options.fromUrl === 'string' ? { url: options.fromUrl } : {}),
        ...headersFrom(options),
        ...(typeof options.specVersion === 'string' ? { specVersion: options.specVersion } : {}),
        ...(typeof options.output === 'string' ? { output: options.output } : {}),
        force: options.force === true,
        ...(options.observe === true ? { observe: true } : {}),
        ...(options.allowMutations === true ? { allowMutations: true } : {}),
        ...(options.maxTime === undefined ? {} : { maxTimeMs: options.maxTime }),
        ...(options.quiet === true ? { quiet: true } : {}),
        now: () => new Date(),
      });
    });
}
