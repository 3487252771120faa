import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseListen } from '../api/listen-address.js';
import { type ListenerAllowances, listenerGuard } from '../api/listener-guard.js';
import { hostName } from '../listener/request-guard.js';
import { McpHttpServer } from '../mcp-server/http-transport.js';
import { serveMcpStdio } from '../mcp-server/stdio-transport.js';
import { displayText } from '../text/display-text.js';

export interface McpCommandOptions extends ListenerAllowances {
  readonly listen?: string;
  readonly folder?: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Until SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/**
 * `mcprely mcp`: serves mcprely's tools over stdio until the client closes it, or over Streamable HTTP (`--listen`)
 * until SIGINT or SIGTERM. Exit 2 for bad options.
 */
export async function runMcp(options: McpCommandOptions, version: string): Promise<number> {
  const folder = resolve(options.folder ?? process.cwd());
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a folder');
  } catch {
    process.stderr.write(`error: --folder ${displayText(options.folder ?? folder)} is not a folder: give an existing folder\n`);
    return 2;
  }
  if (options.listen === undefined) {
    if (options.allowHosts !== undefined || options.allowOrigins !== undefined) {
      process.stderr.write('error: --allow-host and --allow-origin widen an HTTP listener: give them with --listen\n');
      return 2;
    }
    await serveMcpStdio(process.stdin, process.stdout, { workingFolder: folder, version, errors: process.stderr }).ended;
    return 0;
  }
  const listen = parseListen(options.listen);
  if (typeof listen === 'string') {
    process.stderr.write(`error: ${displayText(listen)}\n`);
    return 2;
  }
  const server = new McpHttpServer(folder, version, listenerGuard('mcprely mcp', listen.host, options));
  let url: string;
  try {
    url = await server.listen(listen);
  } catch (error) {
    process.stderr.write(`error: cannot listen on ${displayText(options.listen)}: ${(error as Error).message}\n`);
    return 2;
  }
  if (!LOOPBACK.has(hostName(listen.host) ?? ''))
    process.stderr.write(
      `mcprely mcp: listening on ${displayText(listen.host)}, not loopback, as --listen asked: ` +
        `other machines can reach it; requests must still name it in Host\n`,
    );
  process.stderr.write(
    `mcprely mcp: listening on ${url} (Streamable HTTP; files readable under ${displayText(folder)}; SIGINT or SIGTERM stops it)\n`,
  );
  await stopSignal();
  await server.close();
  return 0;
}
