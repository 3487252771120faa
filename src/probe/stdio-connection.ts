import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { type Call, Connection, type SentNotification } from './connection.js';
import type { WireLog } from './wire-log.js';

/** A line longer than this is not a JSON-RPC message the probe will hold in memory. */
const MAX_LINE = 1024 * 1024;
const MAX_STDERR = 16 * 1024;
/** More messages than this in one probe is a flood: the probe stops listening and ends the process. */
const MAX_MESSAGES = 100_000;
/** Before the handshake is answered, this much non-JSON-RPC output means the program is not an MCP server. */
const MAX_GARBAGE_BEFORE_HANDSHAKE = { lines: 100, characters: 64 * 1024 };
/** After it, this many non-JSON-RPC lines is a flood of garbage. */
const MAX_GARBAGE_LINES = 10_000;

/** How the program ended, when it did. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The server as a child process speaking newline-delimited JSON-RPC on stdio. The command is the one given
 * on the probe's command line, run without a shell. Every bound that stops a hostile program — a line, the
 * message count, the garbage before the handshake — ends the connection with the reason, at once.
 */
export class StdioConnection extends Connection {
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  #buffer = '';
  #stderr = '';
  #messages = 0;
  #garbageCharacters = 0;
  /** Set once the server answered its handshake: from then on, non-JSON output breaks a MUST of the transport. */
  handshakeAnswered = false;
  /** Why the program could not be started (a missing program, no permission). */
  spawnError: string | undefined;
  ended: ProcessEnd | undefined;
  readonly #exited: Promise<void>;

  constructor(argv: readonly string[], log: WireLog, clock: () => number, environment: NodeJS.ProcessEnv = process.env) {
    super('stdio', log, clock);
    const [program, ...args] = argv;
    this.#child = spawn(program!, args, { stdio: ['pipe', 'pipe', 'pipe'], env: environment, shell: false });
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => this.#read(chunk));
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (chunk: string) => {
      if (this.#stderr.length < MAX_STDERR) this.#stderr += chunk.slice(0, MAX_STDERR - this.#stderr.length);
    });
    this.#exited = new Promise((resolve) => {
      this.#child.on('error', (error: NodeJS.ErrnoException) => {
        this.spawnError = spawnProblem(program!, error);
        this.end(this.spawnError);
        resolve();
      });
      this.#child.on('close', (code, signal) => {
        this.ended = { code, signal };
        this.end(`the server process exited (${signal === null ? `code ${code}` : `signal ${signal}`})`);
        resolve();
      });
    });
    this.#child.stdin.on('error', () => undefined);
  }

  get stderr(): string {
    return this.#stderr;
  }

  async send(message: Record<string, unknown>, owner: string): Promise<Call> {
    const call = this.register(message, owner, () => false);
    this.#write(message, owner);
    return call;
  }

  async notify(message: Record<string, unknown>, owner: string): Promise<SentNotification> {
    const sent = this.sentNotification(message, owner);
    this.#write(message, owner);
    return sent;
  }

  async close(): Promise<void> {
    this.lag.stop();
    if (this.ended !== undefined || this.spawnError !== undefined) return;
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 1000);
    this.#child.kill('SIGTERM');
    await this.#exited;
    clearTimeout(timer);
  }

  protected answerServerRequest(message: Record<string, unknown>): void {
    this.#write(this.answerTo(message));
  }

  #write(message: Record<string, unknown>, owner = this.owner): void {
    this.log.sent(message);
    if (this.fatal !== undefined) return;
    // Recorded only when written: a cancellation the server never got is no cancellation of the session.
    this.recording?.message('client', message, owner);
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #read(chunk: string): void {
    if (this.fatal !== undefined) return;
    this.#buffer += chunk;
    for (let newline = this.#buffer.indexOf('\n'); newline !== -1 && this.fatal === undefined; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line !== '') this.#line(line);
    }
    if (this.#buffer.length > MAX_LINE) this.#stop(`the server wrote a line over ${MAX_LINE} characters: not a JSON-RPC message`);
  }

  #line(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) this.#garbage(line);
    else if (++this.#messages > MAX_MESSAGES) this.#stop(`the server flooded the probe with over ${MAX_MESSAGES} messages`);
    else {
      this.log.received(message);
      this.route(message as Record<string, unknown>);
    }
  }

  #garbage(line: string): void {
    this.notJsonRpc(line);
    this.recording?.text(line, undefined);
    this.#garbageCharacters += line.length;
    this.log.add('←', `(not JSON-RPC) ${line}`);
    if (
      !this.handshakeAnswered &&
      (this.garbage.count >= MAX_GARBAGE_BEFORE_HANDSHAKE.lines || this.#garbageCharacters >= MAX_GARBAGE_BEFORE_HANDSHAKE.characters)
    ) {
      this.#stop(
        `the program is not an MCP server: it wrote ${this.garbage.count} line(s) that are not JSON-RPC before answering its handshake, ` +
          `e.g. ${JSON.stringify(this.garbage.samples[0])}`,
      );
    } else if (this.garbage.count >= MAX_GARBAGE_LINES)
      this.#stop(`the server flooded its stdout with over ${MAX_GARBAGE_LINES} lines that are not JSON-RPC`);
  }

  /** Ends a connection the server abused: the reason is recorded first, then the process is killed. */
  #stop(reason: string): void {
    this.#buffer = '';
    this.end(reason);
    this.#child.kill('SIGKILL');
  }
}

export function spawnProblem(program: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `the program ${JSON.stringify(program)} was not found (check the command, or give its full path)`;
  if (error.code === 'EACCES') return `the program ${JSON.stringify(program)} cannot be run (permission denied)`;
  return `the program ${JSON.stringify(program)} could not start: ${error.message}`;
}
