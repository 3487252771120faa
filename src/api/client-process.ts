import { type ChildProcess, spawn } from 'node:child_process';

/** How a client started by --run ended, and the last line it wrote to stderr (what a crash says). */
export interface ClientRun {
  readonly how: string;
  readonly lastErrorLine?: string;
}

/** The most of a client's stderr line kept for the report: its last words, not its whole log. */
const LAST_LINE_MAX = 400;

/** Passes a client's stderr through to ours and keeps its last non-empty line (bounded). */
class LastLine {
  #pending = '';
  #last: string | undefined;

  write(chunk: string): void {
    const text = this.#pending + chunk;
    const lines = text.split(/\r?\n/);
    this.#pending = (lines.pop() ?? '').slice(-LAST_LINE_MAX);
    for (const line of lines) if (line.trim() !== '') this.#last = line.trim().slice(0, LAST_LINE_MAX);
  }

  get last(): string | undefined {
    return this.#pending.trim() !== '' ? this.#pending.trim() : this.#last;
  }
}

/** Starts the client with the endpoint as its last argument (and in MCPRELY_PROBE_URL); how it ended, or why it did not start. */
export function runClient(
  argv: readonly string[],
  url: string,
  waitMs: number,
  interrupted: Promise<string>,
  stderr: { write(text: string): unknown },
): Promise<(ClientRun & { problem?: undefined }) | { problem: string }> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    const lastLine = new LastLine();
    try {
      child = spawn(argv[0] as string, [...argv.slice(1), url], {
        // The client's output goes where the caller's messages go (the CLI: stderr; stdout is the report's). Its stderr
        // passes through us too, its last line kept.
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, MCPRELY_PROBE_URL: url },
        // Its own process group, so that stopping it stops what it started too (a shell script's client).
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      resolve({ problem: (error as Error).message });
      return;
    }
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stderr.write(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr.write(chunk);
      lastLine.write(chunk);
    });
    let stoppedBecause: string | undefined;
    const stop = (why: string) => {
      stoppedBecause ??= why;
      const kill = (signal: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
          else child.kill(signal);
        } catch {
          // Already gone.
        }
      };
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 2000).unref();
    };
    const timer = setTimeout(() => stop(`did not exit within ${waitMs} ms and was stopped`), waitMs);
    void interrupted.then((signal) => stop(`was stopped: mcprely was interrupted (${signal})`));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ problem: `${argv[0]}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such program' : error.message}` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const done = () => {
        const last = lastLine.last;
        resolve({
          how: stoppedBecause ?? (signal !== null ? `was ended by ${signal}` : `exited ${code}`),
          ...(last === undefined ? {} : { lastErrorLine: last }),
        });
      };
      // Its stderr read to the end first, unless something it started still holds the pipe.
      const drained = setTimeout(done, 500);
      child.once('close', () => {
        clearTimeout(drained);
        done();
      });
    });
  });
}
