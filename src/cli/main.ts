import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { addJudgeOptions, judgeOptionsFrom } from './session-options.js';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import { DEFAULT_CACHE_LOCATION } from '../lint-cache/cache-location.js';
import { reportInternalError } from './internal-error.js';
import { addListenerOptions, listenerAllowancesFrom } from './listener-options.js';
import { addLiveOptions, liveOptionsFrom, parseCount, parsePositive } from './live-options.js';
import { OutputSpecs } from './output-spec.js';
import { UsageError } from '../workspace/usage-error.js';
import { parseDocsUrl } from '../workspace/rule-docs-base.js';
import { headerOption, headersFrom } from './live-options.js';
import { displayText } from '../text/display-text.js';
import { CLIENT_PROFILES, type ClientUnderTest, parseClientUnderTest } from '../probe-client/client-profiles.js';
import { FIX_KINDS, type FixKind } from '../rules/rule-types.js';

declare const MCPRELY_VERSION: string;

const SEVERITIES = ['error', 'warn', 'info'];

/** The commands, in the order help lists them. */
export const COMMAND_NAMES = [
  'lint',
  'review',
  'fixtures',
  'verify',
  'evidence',
  'lsp',
  'probe',
  'drift',
  'proxy',
  'audit',
  'probe-client',
  'init',
  'rules',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

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

  if (wanted('lint')) {
    const outputs = new OutputSpecs('stylish');
    program
      .command('lint')
      .description('check manifests against the schema and the reliability rules')
      .argument('[paths...]', 'manifest files (.yaml, .yml or .json), folders to search, or quoted globs; - for standard input')
      .addOption(formatOption(outputs))
      .addOption(outputOption(outputs))
      .addOption(
        new Option('--fail-severity <level>', 'exit 1 when a finding is at least this severe').choices(SEVERITIES).default('error'),
      )
      .option('--max-warnings <count>', 'exit 1 when there are more warnings than this', parseCount)
      .option('-q, --quiet', 'report errors only', false)
      .option('-c, --config <file>', 'configuration file (default: mcprely.config.yaml in the working directory)')
      .option('--no-config', 'ignore any configuration file; use the recommended preset')
      .option('--baseline <file>', 'report the findings listed in this baseline as suppressed')
      .option('--write-baseline <file>', 'write the current findings to a baseline file')
      .option('--prune-baseline', 'rewrite the --baseline file without its stale entries (accepted findings no longer found)', false)
      .option(
        '--ignore-pattern <glob>',
        'leave out files and folders matching this glob (relative to the working directory; repeatable)',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option(
        '--cache',
        `reuse the reports of files that did not change since the last --cache run (kept in ${DEFAULT_CACHE_LOCATION})`,
        false,
      )
      .option('--cache-location <path>', 'the lint cache file, or a folder to keep it in (implies --cache)')
      .option('--stdin', 'lint one manifest read from standard input (as the path -)', false)
      .option(
        '--stdin-filename <path>',
        'with --stdin: the name findings are reported under and configuration overrides match (default <stdin>)',
      )
      .option('--fix', 'apply the layout fixes to the files (comments, order and quoting kept; no claim changes)', false)
      .option('--fix-dry-run', 'print the fixes as a diff on standard output (the report goes to standard error), changing no file', false)
      .option(
        '--fix-type <kinds>',
        'the kinds of fix --fix applies, comma-separated: layout (the default), claim (a value that says what the server does)',
        asUsage(parseFixTypes),
      )
      .option('--docs-url <url>', 'link rule pages at this docs/rules/ address (default: relative to the report)', asUsage(parseDocsUrl))
      .option(
        '--sarif-category <name>',
        'SARIF automationDetails category, one per manifest set (default: mcprely)',
        asUsage(parseCategory),
      )
      .action(async (paths: string[], options: Record<string, unknown>) => {
        if (options['fixType'] !== undefined && options['fix'] !== true && options['fixDryRun'] !== true)
          throw new UsageError('--fix-type goes with --fix or --fix-dry-run');
        const stdin = stdinOf(paths, options);
        const { runLint } = await import('./lint-command.js');
        process.exitCode = await runLint(
          stdin === undefined ? paths : [],
          {
            ...(stdin === undefined ? {} : { stdin }),
            outputs: outputs.resolve(),
            failSeverity: options['failSeverity'] as 'error' | 'warn' | 'info',
            quiet: options['quiet'] === true,
            ...(options['maxWarnings'] === undefined ? {} : { maxWarnings: options['maxWarnings'] as number }),
            ...(options['config'] === undefined || options['config'] === true ? {} : { config: options['config'] as string | false }),
            ...(typeof options['baseline'] === 'string' ? { baseline: options['baseline'] } : {}),
            ...(typeof options['writeBaseline'] === 'string' ? { writeBaseline: options['writeBaseline'] } : {}),
            ...(options['pruneBaseline'] === true ? { pruneBaseline: true } : {}),
            ...(typeof options['docsUrl'] === 'string' ? { docsUrl: options['docsUrl'] } : {}),
            ...(Array.isArray(options['ignorePattern']) ? { ignorePatterns: options['ignorePattern'] as string[] } : {}),
            ...(options['fixDryRun'] === true ? { fix: 'dry-run' as const } : options['fix'] === true ? { fix: 'write' as const } : {}),
            ...(Array.isArray(options['fixType']) ? { fixTypes: options['fixType'] as FixKind[] } : {}),
            ...(typeof options['sarifCategory'] === 'string' ? { sarifCategory: options['sarifCategory'] } : {}),
            ...(typeof options['cacheLocation'] === 'string'
              ? { cacheLocation: options['cacheLocation'] }
              : options['cache'] === true
                ? { cacheLocation: DEFAULT_CACHE_LOCATION }
                : {}),
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('review')) {
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
      .action(async (manifest: string, options: Record<string, unknown>) => {
        const { runReview } = await import('./review-command.js');
        process.exitCode = await runReview(manifest, {
          format: options['format'] as 'markdown' | 'json' | 'html',
          ...(typeof options['output'] === 'string' ? { output: options['output'] } : {}),
          ...(options['config'] === undefined || options['config'] === true ? {} : { config: options['config'] as string | false }),
        });
      });
  }

  if (wanted('fixtures')) {
    program
      .command('fixtures')
      .description('write the failure fixtures of every operation as data files')
      .argument('<manifest>', 'a manifest file')
      .option('-o, --output <dir>', 'folder to write the fixtures to', 'mcprely-fixtures')
      .action(async (manifest: string, options: { output: string }) => {
        const { runFixtures } = await import('./fixtures-command.js');
        process.exitCode = runFixtures(manifest, options);
      });
  }

  if (wanted('verify')) {
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
      .action(async (paths: string[], options: Record<string, unknown>) => {
        if (typeof options['stdio'] === 'string' || typeof options['url'] === 'string') {
          const { runLiveVerify } = await import('./live-verify.js');
          process.exitCode = await runLiveVerify(
            paths,
            {
              ...(typeof options['stdio'] === 'string' ? { stdio: options['stdio'] } : {}),
              ...(typeof options['url'] === 'string' ? { url: options['url'] } : {}),
              ...liveOptionsFrom(options),
              format: options['format'] as 'text' | 'json' | 'junit',
              ...(typeof options['output'] === 'string' ? { output: options['output'] } : {}),
            },
            MCPRELY_VERSION,
          );
          return;
        }
        if (options['header'] !== undefined) throw new UsageError(HEADER_WITHOUT_URL);
        const { runVerify } = await import('./verify-command.js');
        const databaseUrl =
          typeof options['databaseUrl'] === 'string' ? options['databaseUrl'] : process.env['MCPRELY_DATABASE_URL'] || undefined;
        process.exitCode = await runVerify(
          paths,
          {
            format: options['format'] as 'text' | 'json' | 'junit',
            ...(typeof options['output'] === 'string' ? { output: options['output'] } : {}),
            ...(databaseUrl === undefined ? {} : { databaseUrl }),
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('evidence')) {
    const evidence = program
      .command('evidence')
      .description('write the evidence bundle of a manifest: review, fixtures, transcripts and an index')
      .argument('<manifest>', 'a manifest file')
      .requiredOption('-o, --output <dir>', 'folder for the bundle (empty, or an earlier bundle, which is replaced)')
      .option('--stdio <command>', 'also check the manifest against this server over stdio (no shell): probe, drift, live fixtures')
      .option('--url <endpoint>', 'also check the manifest against the server at this Streamable HTTP endpoint');
    addLiveOptions(evidence, "live: also call the manifest's keyed mutation twice with one idempotency key").action(
      async (manifest: string, options: Record<string, unknown>) => {
        if (options['header'] !== undefined && options['stdio'] === undefined && options['url'] === undefined)
          throw new UsageError(HEADER_WITHOUT_URL);
        const { runEvidence } = await import('./evidence-command.js');
        process.exitCode = await runEvidence(manifest, {
          output: options['output'] as string,
          ...(typeof options['stdio'] === 'string' ? { stdio: options['stdio'] } : {}),
          ...(typeof options['url'] === 'string' ? { url: options['url'] } : {}),
          ...liveOptionsFrom(options),
        });
      },
    );
  }

  if (wanted('lsp')) {
    program
      .command('lsp')
      .description('a language server for editors: diagnostics as you type, quick fixes, rule pages on hover')
      .option('--stdio', 'speak the Language Server Protocol over standard input and output (the only transport)')
      .action(async () => {
        const { startLanguageServer } = await import('../language-server/lsp-server.js');
        startLanguageServer(process.stdin, process.stdout);
      });
  }

  if (wanted('probe')) {
    const probeOutputs = new OutputSpecs('stylish');
    const probeCommand = program
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
      .option(
        '--record <trace.jsonl>',
        "write the probe's session to this trace, as the proxy records one (mcprely audit judges it again)",
      );
    addLiveOptions(probeCommand, 'also call a mutation twice with one idempotency key (needs --manifest)')
      .addOption(formatOption(probeOutputs))
      .addOption(outputOption(probeOutputs))
      .action(async (options: Record<string, unknown>) => {
        const { runProbeCommand } = await import('./probe-command.js');
        process.exitCode = await runProbeCommand(
          {
            ...(typeof options['stdio'] === 'string' ? { stdio: options['stdio'] } : {}),
            ...(typeof options['url'] === 'string' ? { url: options['url'] } : {}),
            ...(typeof options['manifest'] === 'string' ? { manifest: options['manifest'] } : {}),
            ...(typeof options['specVersion'] === 'string' ? { specVersion: options['specVersion'] as SpecVersion } : {}),
            ...(typeof options['record'] === 'string' ? { record: options['record'] } : {}),
            ...liveOptionsFrom(options),
            outputs: probeOutputs.resolve(),
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('drift')) {
    const driftOutputs = new OutputSpecs('stylish');
    const driftCommand = program
      .command('drift')
      .description('compare a manifest with the live server it describes: tools, arguments, annotations and every claim seen on the wire')
      .argument('<manifest>', 'the manifest of the server')
      .option('--stdio <command>', 'run this command and speak MCP over its stdin and stdout (no shell)')
      .option('--url <endpoint>', 'speak Streamable HTTP to this endpoint')
      .addOption(
        new Option('--spec-version <revision>', "protocol revision to probe (default: the manifest's)").choices([...SPEC_VERSIONS]),
      );
    addLiveOptions(driftCommand, "also call the manifest's keyed mutation twice with one idempotency key")
      .addOption(
        new Option('--fail-severity <level>', 'exit 1 when a drift finding is at least this severe').choices(SEVERITIES).default('error'),
      )
      .addOption(formatOption(driftOutputs))
      .addOption(outputOption(driftOutputs))
      .action(async (manifest: string, options: Record<string, unknown>) => {
        const { runDrift } = await import('./drift-command.js');
        process.exitCode = await runDrift(
          {
            manifest,
            ...(typeof options['stdio'] === 'string' ? { stdio: options['stdio'] } : {}),
            ...(typeof options['url'] === 'string' ? { url: options['url'] } : {}),
            ...(typeof options['specVersion'] === 'string' ? { specVersion: options['specVersion'] as SpecVersion } : {}),
            ...liveOptionsFrom(options),
            failSeverity: options['failSeverity'] as 'error' | 'warn' | 'info',
            outputs: driftOutputs.resolve(),
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('proxy')) {
    const proxyCommand = program
      .command('proxy')
      .description(
        "relay a real session between a host and a server, record it and judge both parties (put it in the host's MCP configuration)",
      )
      .usage('[options] (--stdio "<server command>" | -- <program> [arguments...] | --url <endpoint> [--listen 127.0.0.1:PORT])')
      .option('--stdio <command>', 'start this server command (no shell) and relay stdio to it')
      .option('--url <endpoint>', "relay Streamable HTTP to this server endpoint (the host connects to the proxy's address instead)")
      .addOption(
        headerOption('with --url: send this header ("Authorization: Bearer …") upstream on every request, in place of the host\'s'),
      )
      .option('--listen <[host:]port>', 'with --url: where the host connects (default 127.0.0.1 on a free port; loopback unless told)')
      .option('--record <trace.jsonl>', 'write every message, as it passes, to this trace (mcprely audit reads it)')
      .argument('[server...]', 'the server command as words, after --');
    addJudgeOptions(addListenerOptions(proxyCommand)).action(async (server: string[], options: Record<string, unknown>) => {
      const { runProxy } = await import('./proxy-command.js');
      if (server.length > 0 && typeof options['stdio'] === 'string') {
        process.stderr.write('error: give the server command once: --stdio "<command>" or after --, not both\n');
        process.exitCode = 2;
        return;
      }
      process.exitCode = await runProxy({
        ...(typeof options['stdio'] === 'string' ? { stdio: options['stdio'] } : {}),
        argv: server,
        ...(typeof options['url'] === 'string' ? { url: options['url'] } : {}),
        ...headersFrom(options),
        ...(typeof options['listen'] === 'string' ? { listen: options['listen'] } : {}),
        ...(typeof options['record'] === 'string' ? { record: options['record'] } : {}),
        ...listenerAllowancesFrom(options),
        judge: judgeOptionsFrom(options),
      });
    });
  }

  if (wanted('audit')) {
    const auditOutputs = new OutputSpecs('stylish');
    const auditCommand = program
      .command('audit')
      .description('judge recorded sessions (mcprely proxy --record): what the server and the client did, as findings at the trace lines')
      .argument('<trace...>', 'trace files (JSON Lines)')
      .option(
        '--manifest <file>',
        "judge each request against its operation's claims: its timeouts, key argument, progress and cancellation",
      )
      .option('--html <file>', "write the session's page: the verdict and a sequence diagram of the messages that decided each failure");
    addJudgeOptions(auditCommand)
      .addOption(
        new Option('--fail-severity <level>', 'exit 1 when a finding is at least this severe').choices(SEVERITIES).default('error'),
      )
      .addOption(formatOption(auditOutputs))
      .addOption(outputOption(auditOutputs))
      .action(async (traces: string[], options: Record<string, unknown>) => {
        const { runAudit } = await import('./audit-command.js');
        process.exitCode = runAudit(
          traces,
          {
            judge: judgeOptionsFrom(options),
            ...(typeof options['manifest'] === 'string' ? { manifest: options['manifest'] } : {}),
            ...(typeof options['html'] === 'string' ? { html: options['html'] } : {}),
            failSeverity: options['failSeverity'] as 'error' | 'warn' | 'info',
            outputs: auditOutputs.resolve(),
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('probe-client')) {
    const clientOutputs = new OutputSpecs('stylish');
    const clientCommand = program
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
      .addOption(
        new Option('--fail-severity <level>', 'exit 1 when a failed case is at least this severe (audit: error by default)')
          .choices(SEVERITIES)
          .default('warn'),
      );
    addJudgeOptions(addListenerOptions(clientCommand))
      .addOption(formatOption(clientOutputs))
      .addOption(outputOption(clientOutputs))
      .action(async (options: Record<string, unknown>) => {
        const { runProbeClient } = await import('./probe-client-command.js');
        // The lint formats only when asked for: the scenario report is what this command writes by itself.
        const formats = options['format'] !== undefined || options['output'] !== undefined;
        process.exitCode = await runProbeClient(
          {
            stdio: options['stdio'] === true,
            ...(typeof options['listen'] === 'string' ? { listen: options['listen'] } : {}),
            ...(typeof options['run'] === 'string' ? { run: options['run'] } : {}),
            ...(typeof options['manifest'] === 'string' ? { manifest: options['manifest'] } : {}),
            ...(typeof options['record'] === 'string' ? { record: options['record'] } : {}),
            ...(typeof options['reportJson'] === 'string' ? { reportJson: options['reportJson'] } : {}),
            ...(typeof options['client'] === 'object' && options['client'] !== null
              ? { client: options['client'] as ClientUnderTest }
              : {}),
            failSeverity: options['failSeverity'] as 'error' | 'warn' | 'info',
            ...(typeof options['html'] === 'string' ? { html: options['html'] } : {}),
            holdMs: options['hold'] as number,
            waitMs: options['wait'] as number,
            ...listenerAllowancesFrom(options),
            judge: judgeOptionsFrom(options),
            outputs: formats ? clientOutputs.resolve() : [],
          },
          MCPRELY_VERSION,
        );
      });
  }

  if (wanted('init')) {
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
      .action(async (options: Record<string, unknown>) => {
        const { runInit } = await import('./init-command.js');
        process.exitCode = await runInit({
          ...(options['template'] === true ? { template: options['transport'] as 'stdio' | 'streamable-http' | 'both' } : {}),
          ...(typeof options['fromStdio'] === 'string' ? { stdio: options['fromStdio'] } : {}),
          ...(typeof options['fromUrl'] === 'string' ? { url: options['fromUrl'] } : {}),
          ...headersFrom(options),
          ...(typeof options['specVersion'] === 'string' ? { specVersion: options['specVersion'] as SpecVersion } : {}),
          ...(typeof options['output'] === 'string' ? { output: options['output'] } : {}),
          force: options['force'] === true,
        });
      });
  }

  if (wanted('rules')) {
    program
      .command('rules')
      .description('list the rules by area, or print the page of one rule')
      .argument('[id]', 'a rule id')
      .option(
        '-c, --config <file>',
        'configuration whose ruleFolders hold your own rules (default: mcprely.config.yaml in the working directory)',
      )
      .option('--no-config', 'the bundled rules only')
      .action(async (id: string | undefined, options: { config?: string | boolean }) => {
        const { runRules } = await import('./rules-command.js');
        process.exitCode = await runRules(id, options.config === true ? undefined : options.config);
      });
  }

  return program;
}

/**
 * `lint --stdin [--stdin-filename name]` or `lint -`: one manifest from standard input, reported under the name
 * given (default `<stdin>`). --fix is refused (there is no file to write; --fix-dry-run shows the diff), and
 * standard input cannot be mixed with paths. Without it, at least one path is required.
 */
function stdinOf(paths: readonly string[], options: Record<string, unknown>): { filename: string } | undefined {
  const dash = paths.includes('-');
  const named = typeof options['stdinFilename'] === 'string' ? options['stdinFilename'] : undefined;
  if (options['stdin'] !== true && !dash) {
    if (named !== undefined) throw new UsageError('--stdin-filename names standard input: give it with --stdin (or the path -)');
    if (paths.length === 0)
      throw new UsageError("missing required argument 'paths' (or give --stdin to read a manifest from standard input)");
    return undefined;
  }
  if (paths.some((path) => path !== '-') || paths.length > 1)
    throw new UsageError('standard input (--stdin or -) is one manifest: give no other paths with it');
  if (options['fix'] === true)
    throw new UsageError('--fix writes files, and standard input is not one: use --fix-dry-run to print the fixes as a diff');
  if (named !== undefined && named.trim() === '') throw new UsageError('--stdin-filename is empty; give the name to report findings under');
  return { filename: named ?? '<stdin>' };
}

/** A `--header` given to a command that calls no endpoint (it would be ignored, and the user thinks it is sent). */
const HEADER_WITHOUT_URL = '--header is for an HTTP endpoint: give it with --url <endpoint>';

/** An option parser whose Error becomes commander's usage error (exit 2). */
function asUsage<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** --fix-type's kinds: `layout`, `claim` or both, comma-separated (ESLint's --fix-type). */
function parseFixTypes(value: string): FixKind[] {
  const kinds = value.split(',').map((kind) => kind.trim());
  for (const kind of kinds)
    if (!(FIX_KINDS as readonly string[]).includes(kind))
      throw new Error(`"${displayText(kind)}" is not a kind of fix; use ${FIX_KINDS.join(', ')} (comma-separated)`);
  return [...new Set(kinds as FixKind[])];
}

/** A SARIF category: letters, digits and `-_.`, with `/` between parts; never empty or ending in `/`. */
function parseCategory(value: string): string {
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(value) || value.length > 200)
    throw new Error('a category is letters, digits, "-", "_" and "." in parts joined by "/", at most 200 characters');
  return value;
}

/** `-f, --format <name>` (repeatable) of a command that writes findings: each format goes to `outputs`. */
function formatOption(outputs: OutputSpecs): Option {
  return new Option('-f, --format <name>', 'output format: stylish, json, sarif, github, junit, markdown, gitlab (repeatable)').argParser(
    collect((name) => outputs.addFormat(name)),
  );
}

/** `-o, --output <file>` (repeatable): the file the preceding --format goes to. */
function outputOption(outputs: OutputSpecs): Option {
  return new Option('-o, --output <file>', 'write the preceding --format to a file (repeatable)').argParser(
    collect((file) => outputs.addOutput(file)),
  );
}

/** A repeatable option whose values are handed, in command-line order, to `take`. */
function collect(take: (value: string) => void): (value: string) => true {
  return (value) => {
    try {
      take(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    return true;
  };
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
