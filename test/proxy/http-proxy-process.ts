import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';

/** A running `mcprely proxy --url` (or any command that listens): where the host connects, and how a host ends it. */
export interface HttpProxyProcess {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** SIGTERM, as a host ending it would: the exit code and everything it wrote to stdout and stderr. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `node [nodeArgs] mcprely proxy --url <upstream> [args]`, resolved once it prints where it listens. */
export function spawnHttpProxy(upstream: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<HttpProxyProcess> {
  return spawnListening(['proxy', '--url', upstream, ...args], nodeArgs);
}

/** `node [nodeArgs] mcprely <args>` (proxy --url, probe-client --listen), resolved once it prints "listening on <url>". */
export async function spawnListening(args: readonly string[], nodeArgs: readonly string[] = []): Promise<HttpProxyProcess> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /listening on (\S+)/.exec(stderr);
      if (found !== null) resolve(found[1] as string);
    });
    child.on('close', (code) => reject(new Error(`mcprely ${args[0]} exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      return { code: await exited, stdout, stderr };
    },
  };
}
