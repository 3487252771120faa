import type { Command } from 'commander';
import type { Severity } from '../../findings/finding.js';
import { OutputSpecs } from '../output-spec.js';
import { addJudgeOptions, type JudgeFlags, judgeOptionsFrom } from '../session-options.js';
import { failSeverityOption } from './option-parsers.js';
import { formatOption, outputOption } from './output-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely audit`'s options as commander parses them. */
interface AuditFlags extends JudgeFlags {
  readonly manifest?: string;
  readonly html?: string;
  readonly failSeverity: Severity;
}

export function registerAudit(program: Command): void {
  const outputs = new OutputSpecs('stylish');
  const audit = program
    .command('audit')
    .description('judge recorded sessions (mcprely proxy --record): what the server and the client did, as findings at the trace lines')
    .argument('<trace...>', 'trace files (JSON Lines)')
    .option('--manifest <file>', "judge each request against its operation's claims: its timeouts, key argument, progress and cancellation")
    .option('--html <file>', "write the session's page: the verdict and a sequence diagram of the messages that decided each failure");
  addJudgeOptions(audit)
    .addOption(failSeverityOption('exit 1 when a finding is at least this severe', 'error'))
    .addOption(formatOption(outputs))
    .addOption(outputOption(outputs))
    .action(async (traces: string[], options: AuditFlags) => {
      const { runAudit } = await import('../audit-command.js');
      process.exitCode = runAudit(
        traces,
        {
          judge: judgeOptionsFrom(options),
          ...(typeof options.manifest === 'string' ? { manifest: options.manifest } : {}),
          ...(typeof options.html === 'string' ? { html: options.html } : {}),
          failSeverity: options.failSeverity,
          outputs: outputs.resolve(),
        },
        MCPRELY_VERSION,
      );
    });
}
