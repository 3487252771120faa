import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Connection, type CallHandle, type PostOutcome } from './connection.js';
import type { WireLog } from './wire-log.js';

/** A server line longer than this is not a JSON-RPC message we will hold in memory. */
const MAX_LINE = 1024 * 1024;
const MAX_STDERR = 16 * 1024;
/** More messages than this in one probe is a flood: the probe stops listening and ends the process. */
const MAX_MESSAGES = 20_000;

/**
 * The server as a child process speaking newline-delimited JSON-RPC on stdio. The command is the one given
 * on the probe's command line, run without a shell. Lines are bounded; garbage is counted, not kept.
 */
export class StdioConnection extends Connection {
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  #buffer = '';
  #stderr = '';
  #exited: string | undefined;
  #messages = 0;

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
    this.#child.on('error', (error) => this.#end(`the command could not start: ${error.message}`));
    this.#child.on('exit', (code, signal) => this.#end(`the server process exited (${signal ?? `code ${code}`})`));
    this.#child.stdin.on('error', () => undefined);
  }

  get broken(): string | undefined {
    if (this.#exited !== undefined) return this.#exited;
    if (this.other.flooded) return 'the server floods: more messages than the probe will queue';
    return undefined;
  }

  get stderr(): string {
    return this.#stderr;
  }

  async call(message: Record<string, unknown>): Promise<CallHandle> {
    const id = message['id'] as string | number;
    const token = (message['params'] as { _meta?: { progressToken?: string | number } } | undefined)?._meta?.progressToken;
    const messages = this.register(id, token);
    this.#write(message);
    return { id, ...(token === undefined ? {} : { progressToken: token }), messages, closeStream: () => false };
  }

  async notify(message: Record<string, unknown>): Promise<PostOutcome> {
    this.#write(message);
    return {};
  }

  async close(): Promise<void> {
    if (this.#exited !== undefined) return;
    this.#child.stdin.end();
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 1000);
    this.#child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  }

  #write(message: Record<string, unknown>): void {
    this.log.sent(message);
    if (this.#exited === undefined) this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    if (this.#buffer.length > MAX_LINE && !this.#buffer.includes('\n')) {
      this.other.pushGarbage(this.#buffer.slice(0, 200));
      this.log.note(`the server wrote over ${MAX_LINE} characters without a newline: not JSON-RPC; discarded`);
      this.#buffer = '';
      return;
    }
    for (let newline = this.#buffer.indexOf('\n'); newline !== -1; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.other.pushGarbage(line);
        this.log.add('←', `(not JSON) ${line}`);
        continue;
      }
      if (message === null || typeof message !== 'object' || Array.isArray(message)) {
        this.other.pushGarbage(line);
        continue;
      }
      if (++this.#messages > MAX_MESSAGES) {
        this.other.flooded = true;
        this.#end(`the server flooded the probe with over ${MAX_MESSAGES} messages; it was stopped`);
        this.#child.kill('SIGKILL');
        return;
      }
      this.log.received(message);
      this.route(message as Record<string, unknown>, this.other);
    }
  }

  #end(reason: string): void {
    if (this.#exited !== undefined) return;
    this.#exited = reason;
    this.log.note(reason);
    this.other.close(reason);
    for (const stream of this.calls.values()) stream.close(reason);
  }
}
