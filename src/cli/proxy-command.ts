import { constants as osConstants } from 'node:os';
import { basename } from 'node:path';
import { splitCommand } from '../probe/command-line.js';
import { relayStdio } from '../proxy/stdio-relay.js';
import { displayText } from '../text/display-text.js';
import type { ProxyOptions } from './proxy-options.js';
import { judgeAsItGoes, openRecorder, writeVerdict } from './proxy-session.js';

/** `mcprely proxy`: over stdio (`--stdio` or after `--`) or Streamable HTTP (`--url`). */
export async function runProxy(options: ProxyOptions): Promise<number> {
  if (options.headers !== undefined && options.url === undefined) {
    process.stderr.write('error: --header is for a Streamable HTTP upstream: give it with --url <endpoint>\n');
    return 2;
  }
  if (options.url !== undefined) {
    if (options.stdio !== undefined || (options.argv ?? []).length > 0) {
      process.stderr.write('error: give one server: --url <endpoint> or a command (--stdio, or after --), not both\n');
      return 2;
    }
    const { runHttpProxy } = await import('./http-proxy-command.js');
    return runHttpProxy({ ...options, url: options.url });
  }
  for (const [given, flag] of [
    [options.listen, '--listen'],
    [options.allowHosts, '--allow-host'],
    [options.allowOrigins, '--allow-origin'],
  ] as const)
    if (given !== undefined) {
      process.stderr.write(`error: ${flag} is for a Streamable HTTP upstream: give it with --url <endpoint>\n`);
      return 2;
    }
  return runStdioProxy(options);
}

/**
 * `mcprely proxy --stdio "<server command>"` (or `-- <program> <args…>`): in a host's MCP configuration in place of
 * the server's command. Starts the server and relays every byte both ways unchanged; records each message to
 * `--record`; when the session ends (the host closes the pipe, the server exits, SIGINT or SIGTERM) writes the
 * judges' verdict to stderr — never to stdout, which is the protocol's. Exits as the server did; 2 when it could
 * not start.
 */
async function runStdioProxy(options: ProxyOptions): Promise<number> {
  let argv: readonly string[] = [];
  try {
    if (options.argv !== undefined && options.argv.length > 0) argv = options.argv;
    else if (options.stdio !== undefined) argv = splitCommand(options.stdio);
  } catch (error) {
    process.stderr.write(`error: --stdio: ${displayText((error as Error).message)}\n`);
    return 2;
  }
  if (argv.length === 0) {
    process.stderr.write('error: give the server command: mcprely proxy --stdio "<command>" or mcprely proxy -- <program> [arguments]\n');
    return 2;
  }
  const recorder = openRecorder({ transport: 'stdio', server: basename(argv[0] as string) }, options.record);
  if (recorder === undefined) return 2;
  const relay = relayStdio(argv, { input: process.stdin, output: process.stdout, errors: process.stderr }, (from, text, cut) =>
    recorder.message(from, text, cut),
  );
  const stopJudging = judgeAsItGoes(recorder, options);
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = signal;
    relay.stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const end = await relay.ended;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (end.problem !== undefined) {
    stopJudging();
    recorder.end(`not started: ${end.problem}`);
    process.stderr.write(`error: ${displayText(end.problem)}\n`);
    return 2;
  }
  const how =
    interrupted !== undefined
      ? `interrupted (${interrupted})`
      : end.signal !== null
        ? `server ended by ${end.signal}`
        : `server exited ${end.code}`;
  stopJudging();
  writeVerdict(recorder, how, options);
  // A server ended by a signal exits as a shell reports it: 128 + the signal's number.
  return end.code ?? 128 + (end.signal === null ? 0 : (osConstants.signals[end.signal] ?? 0));
}
