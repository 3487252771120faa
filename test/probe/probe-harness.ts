import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';

export const SERVERS = 'test/probe/servers';
export const HOSTILE = `${SERVERS}/hostile-server.mjs`;
export const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

export interface ReportCheck {
  id: string;
  status: 'pass' | 'fail' | 'inconclusive' | 'not-observable';
  fix?: string;
  observed?: Record<string, string | number | boolean>;
  summary: string;
  details: string[];
  transcript: { direction: string; text: string; t: number }[];
  durationMs: number;
}

export interface Report {
  revision: string;
  requestedRevision?: string;
  startedOk: boolean;
  problem?: string;
  plan?: { tool: string | null; why: string; mutation: string | null };
  observations: string[];
  checks: ReportCheck[];
  inconclusive?: string;
  /** The long tool did not answer within the probe's limit and went quiet. */
  stall?: { tool: string; check: string; limitMs: number; silentMs: number; progress: number; idleMs: number; maxMs: number };
  stderr?: string;
  /** The probe's own session judged by the server's judges of proxy and audit. */
  session?: { messages: number; graceMs: number; judgements: { judge: string; status: string; summary: string }[] };
}

/** The status of one of the session's judges in a probe report. */
export const judgeStatus = (report: Report, judge: string): string | undefined =>
  report.session?.judgements.find((one) => one.judge === judge)?.status;

export interface ProbeRun {
  readonly status: number | null;
  readonly report: Report;
  readonly stderr: string;
  readonly ms: number;
}

const servers = new Set<ChildProcess>();

/** Kills every server a test started (call from afterAll). */
export function stopServers(): void {
  for (const child of servers) child.kill('SIGKILL');
  servers.clear();
}

/** Starts a loopback HTTP server that prints "listening <port>" (or, with PORT, says it runs); resolves with its port. */
export function startHttp(args: readonly string[], env: Record<string, string> = {}): Promise<{ port: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    servers.add(child);
    const stop = () => {
      child.kill('SIGKILL');
      servers.delete(child);
    };
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port =
        /listening (\d+)/.exec(output)?.[1] ??
        (env['PORT'] !== undefined && /listening on port|running on/i.test(output) ? env['PORT'] : undefined);
      if (port !== undefined) resolve({ port: Number(port), stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const validateReport = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync('schemas/probe-report.schema.json', 'utf8')),
);

/** Runs `mcprely probe … --format json`: the report is valid against its schema and no stack trace shows. */
export async function probe(args: readonly string[], timeoutMs?: number): Promise<ProbeRun> {
  const run = await runCliAsync(['probe', ...args, '--format', 'json'], timeoutMs === undefined ? {} : { timeoutMs });
  expect(showsStackTrace(run.stderr), run.stderr).toBe(false);
  const report = JSON.parse(run.stdout) as Report;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return { status: run.status, report, stderr: run.stderr, ms: run.ms };
}

/** Probes the hostile server with one defect, over stdio or (on a loopback port of its own) Streamable HTTP. */
export async function probeHostile(
  defect: string,
  transport: 'stdio' | 'http',
  revision: string,
  args: readonly string[] = [],
): Promise<ProbeRun> {
  if (transport === 'stdio') return probe(['--stdio', `node ${HOSTILE} ${defect} --revision ${revision}`, ...args]);
  const server = await startHttp([HOSTILE, defect, '--http', '0', '--revision', revision]);
  try {
    return await probe(['--url', `http://127.0.0.1:${server.port}/mcp`, ...args]);
  } finally {
    server.stop();
  }
}

export const statuses = (report: Report): Record<string, string> =>
  Object.fromEntries(report.checks.map((entry) => [entry.id, entry.status]));

export const check = (report: Report, id: string): ReportCheck => {
  const found = report.checks.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no check ${id} in the report`);
  return found;
};

export const failing = (report: Report): Record<string, string> =>
  Object.fromEntries(report.checks.filter((entry) => entry.status === 'fail').map((entry) => [entry.id, entry.summary]));
