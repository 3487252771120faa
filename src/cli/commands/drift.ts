import { type Command, Option } from 'commander';
import type { Severity } from '../../findings/finding.js';
import { SPEC_VERSIONS, type SpecVersion } from '../../spec/revisions.js';
import { addLiveOptions, type LiveFlags, liveOptionsFrom, quietFrom } from '../live-options.js';
import { OutputSpecs } from '../output-spec.js';
import { failSeverityOption } from './option-parsers.js';
import { formatOption, outputOption } from './output-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely drift`'s options as commander parses them. */
interface DriftFlags extends LiveFlags {
  readonly stdio?: string;
  readonly url?: string;
  readonly specVersion?: SpecVersion;
  readonly failSeverity: Severity;
}

export function registerDrift(program: Command): void {
  const outputs = new OutputSpecs('stylish');
  const drift = program
    .command('drift')
    .description('compare a manifest with the live server it describes: tools, arguments, annotations and every claim seen on the wire')
    .argument('<manifest>', 'the manifest of the server')
    .option('--stdio <command>', 'run this command and speak MCP over its stdin and stdout (no shell)')
    .option('--url <endpoint>', 'speak Streamable HTTP to this endpoint')
    .addOption(new Option('--spec-version <revision>', "protocol revision to probe (default: the manifest's)").choices([...SPEC_VERSIONS]));
  addLiveOptions(drift, "also call the manifest's keyed mutation twice with one idempotency key")
    .addOption(failSeverityOption('exit 1 when a drift finding is at least this severe', 'error'))
    .addOption(formatOption(outputs))
    .addOption(outputOption(outputs))
    .action(async (manifest: string, options: DriftFlags) => {
      const { runDrift } = await import('../drift-command.js');
      process.exitCode = await runDrift(
        {
          manifest,
          ...(typeof options.stdio === 'string' ? { stdio: options.stdio } : {}),
          ...(typeof options.url === 'string' ? { url: options.url } : {}),
          ...(typeof options.specVersion === 'string' ? { specVersion: options.specVersion } : {}),
          ...liveOptionsFrom(options),
          ...quietFrom(options),
          failSeverity: options.failSeverity,
          outputs: outputs.resolve(),
        },
        MCPRELY_VERSION,
      );
    });
}
