import { writeFileSync } from 'node:fs';
import { scaffoldManifest, type ListedTool } from '../init/scaffold-manifest.js';
import { splitCommand } from '../probe/command-line.js';
import type { Connection, ProbeRevision } from '../probe/connection.js';
import { HttpConnection } from '../probe/http-connection.js';
import { ProbeSession } from '../probe/session.js';
import { StdioConnection } from '../probe/stdio-connection.js';
import { WireLog } from '../probe/wire-log.js';

/** `mcprely init --from-stdio cmd | --from-url url`: a starting manifest from the server's tools/list. */
export async function runInit(options: { stdio?: string; url?: string; specVersion?: ProbeRevision; output?: string }): Promise<number> {
  if ((options.stdio === undefined) === (options.url === undefined)) {
    process.stderr.write('error: give exactly one of --from-stdio "<command>" and --from-url <endpoint>\n');
    return 2;
  }
  const started = performance.now();
  const clock = () => performance.now() - started;
  const log = new WireLog(clock);
  let connection: Connection;
  try {
    connection =
      options.stdio !== undefined
        ? new StdioConnection(splitCommand(options.stdio), log, clock)
        : new HttpConnection(new URL(options.url!), log, clock);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const session = new ProbeSession(connection, log);
    const opened = await session.open(options.specVersion, 10_000);
    if (!opened.ok) {
      process.stderr.write(`error: could not talk to the server: ${opened.reason}\n`);
      return 2;
    }
    const tools: ListedTool[] = [];
    let serverName = 'server';
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const answer = await session.request('tools/list', cursor === undefined ? {} : { cursor }, 10_000);
      const result = answer?.message['result'] as
        | { tools?: ListedTool[]; nextCursor?: string; _meta?: Record<string, { name?: string }> }
        | undefined;
      if (result === undefined) {
        process.stderr.write(
          `error: tools/list was not answered${answer?.message['error'] ? `: ${JSON.stringify(answer.message['error'])}` : ''}\n`,
        );
        return 2;
      }
      tools.push(...(result.tools ?? []).filter((tool) => typeof tool?.name === 'string'));
      serverName = result._meta?.['io.modelcontextprotocol/serverInfo']?.name ?? serverName;
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const initialize = log.entries.find((entry) => entry.direction === '←' && entry.text.includes('"serverInfo"'));
    const named = initialize === undefined ? undefined : /"serverInfo":\{"name":"([^"]+)"/.exec(initialize.text)?.[1];
    const text = scaffoldManifest({
      serverName: named ?? serverName,
      specVersion: session.revision,
      transport: connection.transport,
      source: options.stdio ?? options.url!,
      tools,
    });
    if (options.output === undefined) process.stdout.write(text);
    else {
      writeFileSync(options.output, text);
      process.stderr.write(
        `wrote ${options.output}: ${tools.length} operations; run mcprely lint ${options.output} for what is left to decide\n`,
      );
    }
    return 0;
  } finally {
    await connection.close();
  }
}
