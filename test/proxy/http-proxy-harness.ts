import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll } from 'vitest';
import { judgeSession } from '../../src/judges/judge-session.js';
import { readTrace } from '../../src/judges/trace-format.js';
import { stopServers } from '../probe/probe-harness.js';
import { spawnHttpProxy } from './http-proxy-process.js';

/**
 * `mcprely proxy --url` with real parties, for http-proxy.test.ts (npm test: the wiring and what it forwards) and
 * http-proxy-sessions.test.ts (npm run test:live: the judges on real timing, session by session).
 */

/** The folder of the traces of one test file (removed after its tests). */
export const work = mkdtempSync(join(tmpdir(), 'mcprely-http-proxy-'));
const proxies = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const proxy of proxies) proxy.kill('SIGKILL');
  stopServers();
  rmSync(work, { recursive: true, force: true });
});
let traces = 0;

/** `mcprely proxy --url <upstream>` as a host would run it, recording to a trace of its own; killed after the tests if left running. */
export async function httpProxy(upstream: string, extra: readonly string[] = []) {
  const trace = join(work, `trace-${++traces}.jsonl`);
  const proxy = await spawnHttpProxy(upstream, ['--record', trace, ...extra]);
  proxies.add(proxy.child);
  return {
    url: proxy.url,
    trace,
    async stop() {
      const stopped = await proxy.stop();
      proxies.delete(proxy.child);
      return stopped;
    },
  };
}

export async function sdkClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-proxy-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export function judged(trace: string, options: { idleTimeoutMs?: number } = {}) {
  const read = readTrace(readFileSync(trace, 'utf8'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const verdict = judgeSession(read.transcript, { toleranceMs: 300, graceMs: 100, ...options });
  return { read, verdict: Object.fromEntries(verdict.judgements.map((one) => [one.judge, one])) };
}
