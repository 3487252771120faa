import type { Command } from 'commander';
import { UsageError } from '../../workspace/usage-error.js';
import { addLiveOptions, HEADER_WITHOUT_URL, type LiveFlags, liveOptionsFrom, quietFrom } from '../live-options.js';

/** `mcprely evidence`'s options as commander parses them. */
interface EvidenceFlags extends LiveFlags {
  readonly output: string;
  readonly stdio?: string;
  readonly url?: string;
}

export function registerEvidence(program: Command): void {
  const evidence = program
    .command('evidence')
    .description('write the evidence bundle of a manifest: review, fixtures, transcripts and an index')
    .argument('<manifest>', 'a manifest file')
    .requiredOption('-o, --output <dir>', 'folder for the bundle (empty, or an earlier bundle, which is replaced)')
    .option('--stdio <command>', 'also check the manifest against this server over stdio (no shell): probe, drift, live fixtures')
    .option('--url <endpoint>', 'also check the manifest against the server at this Streamable HTTP endpoint');
  addLiveOptions(evidence, "live: also call the manifest's keyed mutation twice with one idempotency key").action(
    async (manifest: string, options: EvidenceFlags) => {
      if (options.header !== undefined && options.stdio === undefined && options.url === undefined)
        throw new UsageError(HEADER_WITHOUT_URL);
      const { runEvidence } = await import('../evidence-command.js');
      process.exitCode = await runEvidence(manifest, {
        output: options.output,
        ...(typeof options.stdio === 'string' ? { stdio: options.stdio } : {}),
        ...(typeof options.url === 'string' ? { url: options.url } : {}),
        ...liveOptionsFrom(options),
        ...quietFrom(options),
      });
    },
  );
}
