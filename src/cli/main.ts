import { Command, CommanderError } from 'commander';
import { reportInternalError } from './internal-error.js';
import { displayText } from '../text/display-text.js';
import { registerAudit } from './commands/audit.js';
import { registerDrift } from './commands/drift.js';
import { registerEvidence } from './commands/evidence.js';
import { registerFixtures } from './commands/fixtures.js';
import { registerInit } from './commands/init.js';
import { registerLint } from './commands/lint.js';
import { registerLsp } from './commands/lsp.js';
import { registerMcp } from './commands/mcp.js';
import { registerProbe } from './commands/probe.js';
import { registerProbeClient } from './commands/probe-client.js';
import { registerProxy } from './commands/proxy.js';
import { registerReview } from './commands/review.js';
import { registerRules } from './commands/rules.js';
import { registerVerify } from './commands/verify.js';

declare const MCPRELY_VERSION: string;

/** The commands, in the order help lists them. */
export const COMMAND_NAMES = [
  'lint',
  'review',
  'fixtures',
  'verify',
  'evidence',
  'lsp',
  'mcp',
  'probe',
  'drift',
  'proxy',
  'audit',
  'probe-client',
  'init',
  'rules',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Each command's registration (its options, help and action), one file per command under src/cli/commands/. */
const REGISTRATIONS: Record<CommandName, (program: Command) => void> = {
  lint: registerLint,
  review: registerReview,
  fixtures: registerFixtures,
  verify: registerVerify,
  evidence: registerEvidence,
  lsp: registerLsp,
  mcp: registerMcp,
  probe: registerProbe,
  drift: registerDrift,
  proxy: registerProxy,
  audit: registerAudit,
  'probe-client': registerProbeClient,
  init: registerInit,
  rules: registerRules,
};

/**
 * Commander wiring only: each command loads its module when it runs, so `--version` stays fast. With `only`, the
 * program has that one command (what `mcprely <command> …` needs: its help and its errors are the same), and a
 * start does not spend time defining the options of the nine others; without it, every command (root help,
 * `help`, `--version`, an unknown command's suggestion).
 */
export function buildProgram(only?: CommandName): Command {
  const wanted = (name: CommandName) => only === undefined || only === name;
  const program = new Command('mcprely')
    .description('Reliability linter and review tool for Model Context Protocol (MCP) servers.')
    .version(MCPRELY_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride();

  for (const name of COMMAND_NAMES) if (wanted(name)) REGISTRATIONS[name](program);
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  const named = argv[2];
  const program = buildProgram(COMMAND_NAMES.find((name) => name === named));
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; every usage error is 2, as documented.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof Error && error.name === 'UsageError') {
      process.stderr.write(`error: ${displayText(error.message)}\n`);
      process.exitCode = 2;
      return;
    }
    reportInternalError(error);
  }
}
