import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Party } from '../judges/session-transcript.js';
import { spawnProblem } from '../probe/stdio-connection.js';
import { LineTap } from './line-tap.js';

/** The host's side of a relay: where the client's bytes come from, where the server's go, where its log goes. */
export interface RelayEnds {
  readonly input: Readable;
  readonly output: Writable;
  readonly errors: Writable;
}

/** How the server process ended: its exit code or signal, or why it never started. */
export interface RelayEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly problem?: string;
}

export interface StdioRelay {
  readonly ended: Promise<RelayEnd>;
  /** Ends the server with a signal (the host ended the proxy); SIGKILL after `graceMs` if it is still there. */
  stop(signal: NodeJS.Signals, graceMs?: number): void;
}

/**
 * Starts the server (`argv`, no shell) and relays bytes both ways unchanged, with back-pressure: what the host
 * writes goes to the server's stdin, what the server writes to stdout goes to the host, its stderr to the host's
 * log. A copy of each direction is read as lines for `line` (each message, in the order it passed).
 */
export function relayStdio(argv: readonly string[], ends: RelayEnds, line: (from: Party, text: string, cut: boolean) => void): StdioRelay {
  const [program, ...args] = argv as [string, ...string[]];
  const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  const fromClient = new LineTap((text, cut) => line('client', text, cut));
  const fromServer = new LineTap((text, cut) => line('server', text, cut));
  let problem: string | undefined;
  child.stdin.on('error', () => {
    // The server closed its stdin (or died): what the host still writes has nowhere to go; its exit ends the relay.
  });
  ends.input.on('data', (chunk: Buffer) => fromClient.write(chunk));
  ends.input.on('end', () => fromClient.end());
  ends.input.pipe(child.stdin);
  child.stdout.on('data', (chunk: Buffer) => fromServer.write(chunk));
  child.stdout.pipe(ends.output, { end: false });
  // The host went away (its end of our stdout closed): nobody is left to answer, so the server is ended.
  ends.output.on('error', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  child.stderr.pipe(ends.errors, { end: false });
  const ended = new Promise<RelayEnd>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      problem = spawnProblem(program, error);
    });
    child.on('close', (code, signal) => {
      fromServer.end();
      ends.input.unpipe(child.stdin);
      resolve({ code, signal, ...(problem === undefined ? {} : { problem }) });
    });
  });
  return {
    ended,
    stop(signal, graceMs = 2000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    },
  };
}
