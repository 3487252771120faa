import type { Command } from 'commander';
import { addListenerOptions, type ListenerFlags, listenerAllowancesFrom } from '../listener-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely mcp`'s options as commander parses them. */
interface McpFlags extends ListenerFlags {
  readonly listen?: string;
  readonly folder?: string;
}

export function registerMcp(program: Command): void {
  const mcp = program
    .command('mcp')
    .description(
      'mcprely as an MCP server for coding assistants: lint_manifest, review_operation, generate_fixtures, explain_rule, manifest_from_tools',
    )
    .usage('[options]  (stdio by default; --listen <[host:]port> for Streamable HTTP)')
    .option('--listen <[host:]port>', 'serve Streamable HTTP here instead of stdio (127.0.0.1 unless a host is given)')
    .option('--folder <dir>', 'the folder whose files the tools may read by path (default: the working directory)');
  addListenerOptions(mcp).action(async (options: McpFlags) => {
    const { runMcp } = await import('../mcp-command.js');
    process.exitCode = await runMcp(
      {
        ...(typeof options.listen === 'string' ? { listen: options.listen } : {}),
        ...(typeof options.folder === 'string' ? { folder: options.folder } : {}),
        ...listenerAllowancesFrom(options),
      },
      MCPRELY_VERSION,
    );
  });
}
