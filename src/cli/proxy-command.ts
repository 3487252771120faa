import { constants as osConstants } from 'node:os';
import { basename } from 'node:path';
import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { judgementLines } from '../judges/session-rules.js';
import { splitCommand } from '../probe/command-line.js';
import { SessionRecorder } from '../proxy/session-recorder.js';
import { relayStdio } from '../proxy/stdio-relay.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';

export interface ProxyOptions {
  /** The server command as one string (`--stdio`), or its words (after `--`). */
  readonly stdio?: string;
  readonly argv?: readonly string[];
  readonly record?: string;
  readonly judge: JudgeOptions;
}

/**
 * `mcprely proxy --stdio "<server command>"` (or `-- <program> <args…>`): in a host's MCP configuration in place of
 * the server's command. Starts the server and relays every byte both ways unchanged; records each message to
 * `--record`; when the session ends (the host closes the pipe, the server exits, SIGINT or SIGTERM) writes the
 * judges' verdict to stderr — never to stdout, which is the protocol's. Exits as the server did; 2 when it could
 * not start.
 */
export async function runProxy(options: ProxyOptions): Promise<number> {
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
  let recorder: SessionRecorder;
  try {
    recorder = new SessionRecorder({ transport: 'stdio', server: basename(argv[0] as string) }, options.record);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : code;
    process.stderr.write(
      `error: cannot write the trace ${displayText(options.record ?? '')}: ${displayText(why ?? (error as Error).message)}\n`,
    );
    return 2;
  }
  const relay = relayStdio(argv, { input: process.stdin, output: process.stdout, errors: process.stderr }, (from, text, cut) =>
    recorder.message(from, text, cut),
  );
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
  const transcript = recorder.end(how);
  const verdict = judgeSession(transcript, options.judge);
  const lines = [
    `mcprely proxy: ${plural(recorder.messageCount, 'message')} relayed, ${how}` +
      (options.record === undefined ? '' : `; trace in ${displayText(options.record)} (mcprely audit judges it again)`),
    ...judgementLines(verdict.judgements),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  // A server ended by a signal exits as a shell reports it: 128 + the signal's number.
  return end.code ?? 128 + (end.signal === null ? 0 : (osConstants.signals[end.signal] ?? 0));
}
