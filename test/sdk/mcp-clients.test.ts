import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { MCPRELY, readmeMcpConfig, startHttpMcp, workingFolder } from '../mcp-server/mcp-server-harness.js';
import { MCP_TOOLS } from '../../src/mcp-server/mcp-tools.js';
import { python } from './sdk-server-process.js';

/**
 * The official clients drive every tool of mcprely mcp, on stdio and Streamable HTTP, each revision the client speaks:
 * TypeScript SDK v1 (2025-11-25), v2 (both), the Python SDK (both; its rows skipped, saying why, only when
 * .python-sdk/ cannot be installed). Each structured result validates against the output schema the tool declared;
 * review_operation reports progress to the client's callback; a path outside the working folder is a tool error.
 * And the README's configuration lines, run as written (npx mcprely mcp) by the v1 client. Slow: npm run test:sdk.
 */
const folder = workingFolder(1);
const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});
const ajv = new Ajv2020({ strict: false, allErrors: true });

interface Driven {
  readonly protocol?: string;
  readonly tools: { name: string; outputSchema: object; annotations: Record<string, unknown> }[];
  readonly results: {
    name: string;
    error?: string;
    progress: number;
    result?: { structuredContent?: object; isError?: boolean; content: { type: string; text: string }[] };
  }[];
}

function drive(program: string, args: readonly string[], options: { cwd?: string } = {}): Promise<Driven> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    stops.push(() => child.kill());
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    // 'close', not 'exit': a process can have exited before its parent has read the last of its stdout (its report).
    let readAtExit = -1;
    child.once('exit', () => (readAtExit = out.length));
    child.once('close', (code) => {
      try {
        resolve(JSON.parse(out) as Driven);
      } catch {
        const read = `${out.length} bytes on stdout, ${readAtExit} of them read at its exit`;
        reject(new Error(`the driver exited ${code} without its report (${read}): ${JSON.stringify(out.slice(-400))} ${err}`));
      }
    });
  });
}

function expectEveryTool(driven: Driven): void {
  expect(driven.tools.map((tool) => tool.name)).toEqual(MCP_TOOLS.map((tool) => tool.name));
  for (const tool of driven.tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  const schemas = new Map(driven.tools.map((tool) => [tool.name, tool.outputSchema]));
  const [outsideCall, ...calls] = [driven.results.at(-1), ...driven.results.slice(0, -1)];
  for (const call of calls) {
    expect(call.error, call.name).toBeUndefined();
    expect(call.result?.isError ?? false, call.name).toBe(false);
    expect(call.result?.content[0]?.type, call.name).toBe('text');
    const valid = ajv.validate(schemas.get(call.name) as object, call.result?.structuredContent);
    expect(ajv.errors ?? [], call.name).toEqual([]);
    expect(valid, call.name).toBe(true);
  }
  expect(calls.find((call) => call.name === 'review_operation')?.progress).toBeGreaterThan(0);
  expect(outsideCall?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/has a \.\. segment/) }] });
}

const TS = 'test/mcp-server/clients/ts-sdk-mcp.mjs';
const PY = 'test/mcp-server/clients/python-sdk-mcp.py';
const stdio = ['--stdio', process.execPath, MCPRELY, 'mcp', '--folder', folder];
const ROWS: readonly (readonly [string, string])[] = [
  ['ts-sdk-v1', '2025-11-25'],
  ['ts-sdk-v2', '2025-11-25'],
  ['ts-sdk-v2', '2026-07-28'],
  ['python-sdk', '2025-11-25'],
  ['python-sdk', '2026-07-28'],
];

function driver(client: string, revision: string, target: readonly string[]): [string, string[]] {
  if (client === 'python-sdk') return [python as string, [PY, revision, ...target]];
  return [process.execPath, [TS, client === 'ts-sdk-v1' ? 'v1' : 'v2', revision, ...target]];
}

describe.concurrent('the official clients drive every tool of mcprely mcp', () => {
  for (const [client, revision] of ROWS) {
    const skip = client === 'python-sdk' && python === undefined;
    if (skip) console.warn(`${client} rows skipped: .python-sdk/ could not be installed (node scripts/python-sdk.mjs says why)`);
    it.skipIf(skip)(`${client}, stdio, ${revision}`, { timeout: 60_000 }, async () => {
      const driven = await drive(...driver(client, revision, stdio));
      if (client !== 'ts-sdk-v1') expect(driven.protocol).toBe(revision);
      expectEveryTool(driven);
    });
    it.skipIf(skip)(`${client}, Streamable HTTP, ${revision}`, { timeout: 60_000 }, async () => {
      const server = await startHttpMcp(folder);
      stops.push(server.stop);
      const driven = await drive(...driver(client, revision, [server.url]));
      if (client !== 'ts-sdk-v1') expect(driven.protocol).toBe(revision);
      expectEveryTool(driven);
    });
  }

  it("the README's configuration lines as written: npx mcprely mcp", { timeout: 90_000 }, async () => {
    const config = readmeMcpConfig();
    // An assistant's project where mcprely is installed: npx finds it in node_modules/.bin (here, the build of this
    // checkout, as npm links a package's bin); the server starts in the project, its working folder.
    const project = workingFolder(1);
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "assistant-project", "private": true }\n');
    const bin = join(project, 'node_modules', '.bin', 'mcprely');
    writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${resolve(MCPRELY)}" "$@"\n`);
    chmodSync(bin, 0o755);
    const driven = await drive(process.execPath, [resolve(TS), 'v1', '2025-11-25', '--stdio', config.command, ...config.args], {
      cwd: project,
    });
    expect(driven.tools).toHaveLength(6);
    expect(driven.results[0]?.result?.structuredContent).toMatchObject({ file: 'billing.yaml', errors: 0 });
  });
});
