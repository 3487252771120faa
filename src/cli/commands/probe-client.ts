import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Severity } from '../../findings/finding.js';
import { CLIENT_PROFILES, type ClientUnderTest, parseClientUnderTest } from '../../probe-client/client-profiles.js';
import { addListenerOptions, type ListenerFlags, listenerAllowancesFrom } from '../listener-options.js';
import { parsePositive } from '../live-options.js';
import { OutputSpecs } from '../output-spec.js';
import { addJudgeOptions, type JudgeFlags, judgeOptionsFrom } from '../session-options.js';
import { failSeverityOption } from './option-parsers.js';
import { formatOption, outputOption } from './output-options.js';

declare const MCPRELY_VERSION: string;

/** `mcprely probe-client`'s options as commander parses them. */
interface ProbeClientFlags extends ListenerFlags, JudgeFlags {
  readonly stdio: boolean;
  readonly listen?: string;
  readonly run?: string;
  readonly manifest?: string;
  readonly record?: string;
  readonly hold: number;
  readonly wait: number;
  readonly reportJson?: string;
  readonly html?: string;
  readonly client?: ClientUnderTest;
  readonly failSeverity: Severity;
  /** Set (to true) when a --format or --output was given: the outputs themselves are in `OutputSpecs`. */
  readonly format?: true;
  readonly output?: true;
}

export function registerProbeClient(program: Command): void {
  const outputs = new OutputSpecs('stylish');
  const probeClient = program
    .command('probe-client')
    .description("a test server whose tools are scenarios: judges an MCP client's timeouts, cancellation, progress and reconnects")
    .usage('[options] (--stdio | --listen <[host:]port> | --run "<client command>")')
    .option('--stdio', 'serve one session on stdin and stdout (put mcprely probe-client --stdio in the host as a server command)', false)
    .option('--listen <[host:]port>', 'serve Streamable HTTP here (loopback unless told; default 127.0.0.1 on a free port with --run)')
    .option(
      '--run <command>',
      'start this client (no shell) with the endpoint URL as its last argument and MCPRELY_PROBE_URL, judge it, exit',
    )
    .option(
      '--manifest <file>',
      "judge each call against its operation's timeouts in this manifest (operations named after the scenario tools)",
    )
    .option('--record <trace.jsonl>', 'write each session to a trace (later sessions numbered: t.2.jsonl); mcprely audit judges it again')
    .addOption(
      new Option('--hold <ms>', 'answer a call nothing ended after this long, so that a session can end')
        .argParser(parsePositive)
        .default(120_000),
    )
    .addOption(
      new Option('--wait <ms>', 'with --run: stop the client if it has not exited after this long')
        .argParser(parsePositive)
        .default(300_000),
    )
    .option('--report-json <file>', 'write the report (each scenario, its cases, every judgement) as JSON')
    .option('--html <file>', "write each session's page: the verdict and a sequence diagram of the messages that decided each failure")
    .addOption(
      new Option(
        '--client <library[@version]>',
        `the client library under test (${CLIENT_PROFILES.map((profile) => profile.id).join(', ')}), and its version when known: ` +
          'a failure names its known behaviour (docs/client-profiles.md)',
      ).argParser((value: string) => {
        const parsed = parseClientUnderTest(value);
        if ('problem' in parsed) throw new InvalidArgumentError(parsed.problem);
        return parsed;
      }),
    )
    .addOption(failSeverityOption('exit 1 when a failed case is at least this severe (audit: error by default)', 'warn'));
  addJudgeOptions(addListenerOptions(probeClient))
    .addOption(formatOption(outputs))
    .addOption(outputOption(outputs))
    .action(async (options: ProbeClientFlags) => {
      const { runProbeClient } = await import('../probe-client-command.js');
      // The lint formats only when asked for: the scenario report is what this command writes by itself.
      const formats = options.format !== undefined || options.output !== undefined;
      process.exitCode = await runProbeClient(
        {
          stdio: options.stdio === true,
          ...(typeof options.listen === 'string' ? { listen: options.listen } : {}),
          ...(typeof options.run === 'string' ? { run: options.run } : {}),
          ...(typeof options.manifest === 'string' ? { manifest: options.manifest } : {}),
          ...(typeof options.record === 'string' ? { record: options.record } : {}),
          ...(typeof options.reportJson === 'string' ? { reportJson: options.reportJson } : {}),
          ...(typeof options.client === 'object' && options.client !== null ? { client: options.client } : {}),
          failSeverity: options.failSeverity,
          ...(typeof options.html === 'string' ? { html: options.html } : {}),
          holdMs: options.hold,
          waitMs: options.wait,
          ...listenerAllowancesFrom(options),
          judge: judgeOptionsFrom(options),
          outputs: formats ? outputs.resolve() : [],
        },
        MCPRELY_VERSION,
      );
    });
}
