import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll } from 'vitest';
import { readTrace } from '../../src/judges/trace-format.js';
import { judgeSession } from '../../src/judges/judge-session.js';
import { CLI, REPO_ROOT } from '../helpers/run-cli.js';

/**
 * `mcprely proxy` over stdio with real parties, for proxy.test.ts (npm test: the wiring) and proxy-sessions.test.ts
 * (npm run test:live: the judges on real timing, session by session).
 */

/** The folder of the traces and files of one test file (removed after its tests). */
export const work = mkdtempSync(join(tmpdir(), 'mcprely-proxy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let traces = 0;

/** A fresh trace path in `work`. */
export const nextTrace = (prefix: string): string => join(work, `${prefix}-${++traces}.jsonl`);

/** An SDK client whose server command is the proxy in front of `server` (what a host's configuration would hold). */
export async function sdkThroughProxy(server: readonly string[], judgeArgs: readonly string[] = []) {
  const trace = nextTrace('trace');
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'proxy', '--record', trace, ...judgeArgs, '--', process.execPath, ...server],
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'proxy-test', version: '1' });
  await client.connect(transport);
  return {
    client,
    trace,
    /** Closes the session and waits for the proxy to write its verdict. */
    async close(): Promise<string> {
      const exited = new Promise<void>((resolve) => {
        const started = Date.now();
        const wait = () => (/mcprely proxy: /.test(stderr) || Date.now() - started > 5000 ? resolve() : setTimeout(wait, 20));
        wait();
      });
      await client.close();
      await exited;
      return stderr;
    },
  };
}

export async function sdkDirect(server: readonly string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...server], cwd: REPO_ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'proxy-test', version: '1' });
  await client.connect(transport);
  return client;
}

export function judged(trace: string, options: { idleTimeoutMs?: number; maxTimeoutMs?: number; toleranceMs?: number } = {}) {
  const read = readTrace(readFileSync(trace, 'utf8'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const verdict = judgeSession(read.transcript, { toleranceMs: 300, graceMs: 100, ...options });
  return Object.fromEntries(verdict.judgements.map((one) => [one.judge, one]));
}

/** The proxy in front of `server`, driven by the test as a raw client: lines in, lines out. */
export function rawProxy(server: readonly string[], trace: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, 'proxy', '--record', trace, '--', process.execPath, ...server],
    {
      cwd: REPO_ROOT,
    },
  );
  const lines: unknown[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    /** What the proxy has written to stderr so far (while it runs). */
    stderr: () => stderr,
    send: (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`),
    answered: async (id: number) => {
      for (let waited = 0; waited < 5000; waited += 10) {
        if (lines.some((line) => (line as { id?: unknown }).id === id)) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no answer to ${id}`);
    },
    end: async () => {
      child.stdin.end();
      return { code: await exited, stderr };
    },
    interrupt: async (signal: NodeJS.Signals) => {
      child.kill(signal);
      return { code: await exited, stderr };
    },
  };
}

export async function handshake(proxy: ReturnType<typeof rawProxy>) {
  proxy.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await proxy.answered(0);
  proxy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

/** Calls slow_job as request 1 with a progress token (the hostile server reports progress every 150 ms, answers at ~600 ms). */
export function callSlowJob(proxy: ReturnType<typeof rawProxy>) {
  proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_job', arguments: {}, _meta: { progressToken: 'p-1' } } });
}
