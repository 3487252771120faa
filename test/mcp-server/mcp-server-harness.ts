import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** The built command line of mcprely. */
export const MCPRELY = 'dist/mcprely.js';

/**
 * A working folder for `mcprely mcp` with `large.yaml`: the billing example's operations `copies` times over (renamed),
 * so that reviewing it runs copies × 58 fixtures — a call that lasts seconds and reports progress all along.
 */
export function workingFolder(copies = 4): string {
  const folder = mkdtempSync(join(tmpdir(), 'mcprely-mcp-'));
  const billing = parse(readFileSync('fixtures/examples/billing.yaml', 'utf8')) as { operations: { name: string }[] };
  const operations = Array.from({ length: copies }, (_, copy) =>
    billing.operations.map((one) => ({ ...one, name: `${one.name}_${copy}` })),
  );
  writeFileSync(join(folder, 'large.yaml'), stringify({ ...billing, operations: operations.flat() }));
  writeFileSync(join(folder, 'billing.yaml'), readFileSync('fixtures/examples/billing.yaml'));
  return folder;
}

/** `mcprely mcp --listen 127.0.0.1:0` in `folder`: its endpoint once it listens, and how to stop it. */
export function startHttpMcp(
  folder: string,
  extra: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCPRELY, 'mcp', '--listen', '127.0.0.1:0', '--folder', folder, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let told = '';
    child.stderr.on('data', (chunk: Buffer) => {
      told += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(told)?.[1];
      if (url !== undefined) resolve({ url, child, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`mcprely mcp exited ${code}: ${told}`)));
  });
}

/** The server the README's MCP configuration block names (between its mcp-config markers). */
export function readmeMcpConfig(): { command: string; args: string[] } {
  const readme = readFileSync('README.md', 'utf8');
  const block = /<!-- mcp-config:begin -->\n```json\n([\s\S]*?)\n```\n<!-- mcp-config:end -->/.exec(readme)?.[1];
  if (block === undefined) throw new Error('the README has no MCP configuration block between its markers');
  return (JSON.parse(block) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers['mcprely'] as {
    command: string;
    args: string[];
  };
}
