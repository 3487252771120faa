import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';

/** A running `mcprely proxy --url`: where the host connects, and how a host ends it. */
export interface HttpProxyProcess {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** SIGTERM, as a host ending it would: the exit code and everything it wrote to stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** `node [nodeArgs] mcprely proxy --url <upstream> [args]`, resolved once it prints where it listens. */
export async function spawnHttpProxy(
  upstream: string,
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<HttpProxyProcess> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'proxy', '--url', upstream, ...args], { cwd: REPO_ROOT });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /listening on (\S+)/.exec(stderr);
      if (found !== null) resolve(found[1] as string);
    });
    child.on('close', (code) => reject(new Error(`the proxy exited ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      return { code: await exited, stderr };
    },
  };
}
