import { type Command, Option } from 'commander';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS, type SpecVersion } from '../../spec/revisions.js';
import { addLiveOptions, type LiveFlags, liveOptionsFrom, quietFrom } from '../live-options.js';
import { OutputSpecs } from '../output-spec.js';
import { formatOption, outputOption } from './output-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely probe`'s options as commander parses them. */
interface ProbeFlags extends LiveFlags {
  readonly stdio?: string;
  readonly url?: string;
  readonly manifest?: string;
  readonly specVersion?: SpecVersion;
  readonly record?: string;
}

export function registerProbe(program: Command): void {
  const outputs = new OutputSpecs('stylish');
  const probe = program
    .command('probe')
    .description('check what a live MCP server does on the wire when requests are cancelled, time out or are retried')
    .option('--stdio <command>', 'run this command and speak MCP over its stdin and stdout (no shell)')
    .option('--url <endpoint>', 'speak Streamable HTTP to this endpoint')
    .option('--manifest <file>', 'the manifest that names the long-running tool, its timeouts and its key argument')
    .addOption(
      new Option(
        '--spec-version <revision>',
        `protocol revision to probe (default: the manifest, or asked of an HTTP server, or ${MOST_DEPLOYED_REVISION})`,
      ).choices([...SPEC_VERSIONS]),
    )
    .option('--record <trace.jsonl>', "write the probe's session to this trace, as the proxy records one (mcprely audit judges it again)");
  addLiveOptions(probe, 'also call a mutation twice with one idempotency key (needs --manifest)')
    .addOption(formatOption(outputs))
    .addOption(outputOption(outputs))
    .action(async (options: ProbeFlags) => {
      const { runProbeCommand } = await import('../probe-command.js');
      process.exitCode = await runProbeCommand(
        {
          ...(typeof options.stdio === 'string' ? { stdio: options.stdio } : {}),
          ...(typeof options.url === 'string' ? { url: options.url } : {}),
          ...(typeof options.manifest === 'string' ? { manifest: options.manifest } : {}),
          ...(typeof options.specVersion === 'string' ? { specVersion: options.specVersion } : {}),
          ...(typeof options.record === 'string' ? { record: options.record } : {}),
          ...liveOptionsFrom(options),
          ...quietFrom(options),
          outputs: outputs.resolve(),
        },
        MCPRELY_VERSION,
      );
    });
}
