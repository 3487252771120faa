import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

/** The SDK-built servers of test/probe/servers/sdk/: TypeScript v1 and v2, and the Python SDK's (when it installs here). */
export const SDK_DIR = 'test/probe/servers/sdk';
export type SdkServer = 'v1' | 'v2' | 'python';

/** The Python interpreter of .python-sdk/ (scripts/python-sdk.mjs installs it), or undefined when it cannot be installed. */
export const python = (() => {
  const setup = spawnSync(process.execPath, ['scripts/python-sdk.mjs'], { encoding: 'utf8' });
  return setup.status === 0 ? setup.stdout.trim() : undefined;
})();

/** The program and arguments that start `server` in `variant` (`mode`: ['stdio'] or ['http', port]). */
export function sdkServerCommand(server: SdkServer, variant: string, mode: readonly string[]): [string, string[]] {
  if (server === 'python') return [python as string, [`${SDK_DIR}/python_server.py`, variant, ...mode]];
  return [process.execPath, [`${SDK_DIR}/${server}.mjs`, variant, ...mode]];
}

/** Starts `server` over Streamable HTTP on a free loopback port; `children` keeps it for the suite to kill. */
export function listenSdk(server: SdkServer, variant: string, children: Set<ChildProcess>): Promise<{ port: number; child: ChildProcess }> {
  const [program, args] = sdkServerCommand(server, variant, ['http', '0']);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve({ port: Number(port), child });
    });
    child.on('exit', (code) => reject(new Error(`${server} ${variant} exited ${code}: ${output}`)));
  });
}
