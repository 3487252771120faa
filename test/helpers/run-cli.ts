import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/mcprely.js', import.meta.url));

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built binary as a user would, without colour, from the repository root unless told otherwise. */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): CliRun {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    encoding: 'utf8',
    input: options.input ?? '',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** True when the output shows a JavaScript stack trace, which no user should ever see for bad input. */
export function showsStackTrace(text: string): boolean {
  return /^\s+at .+\(.+:\d+:\d+\)$/m.test(text) || /^\s+at .+:\d+:\d+$/m.test(text);
}

/** Runs the built binary without blocking the test process, so several probes (each with its own server) run at once. */
export function runCliAsync(
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; nodeOptions?: readonly string[] } = {},
): Promise<CliRun & { ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}
