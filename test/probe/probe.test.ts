import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

const SERVERS = 'test/probe/servers';
const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

interface Report {
  revision: string;
  startedOk: boolean;
  problem?: string;
  observations: string[];
  checks: { id: string; status: 'pass' | 'fail' | 'skip'; summary: string; transcript: { direction: string; text: string }[] }[];
}

/** Starts a loopback HTTP server that prints "listening <port>"; resolves with its port. */
function startHttp(args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port =
        /listening (\d+)/.exec(output)?.[1] ??
        (env['PORT'] !== undefined && /Server is running|listening on port|running on/i.test(output) ? env['PORT'] : undefined);
      if (port !== undefined) resolve(Number(port));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

function freePort(): Promise<number> {
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

function probe(args: string[]): { status: number | null; report: Report; text: string } {
  const json = runCli(['probe', ...args, '--grace', '300', '--max-time', '40000', '--format', 'json']);
  expect(showsStackTrace(json.stderr), json.stderr).toBe(false);
  expect(validateReport(JSON.parse(json.stdout)), JSON.stringify(validateReport.errors)).toBe(true);
  return { status: json.status, report: JSON.parse(json.stdout) as Report, text: json.stdout };
}

const statuses = (report: Report) => Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
const check = (report: Report, id: string) => report.checks.find((candidate) => candidate.id === id)!;

describe('probe: well-behaved servers built with the official SDKs', () => {
  it('SDK 1.x over stdio: every check passes, the key replays and changed arguments are refused', () => {
    const { status, report } = probe([
      '--stdio',
      `node ${SERVERS}/sdk-v1-server.mjs stdio`,
      '--manifest',
      `${SERVERS}/well-behaved.yaml`,
      '--allow-mutations',
    ]);
    expect(report.revision).toBe('2025-11-25');
    expect(statuses(report)).toEqual({
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'client-timeouts': 'pass',
      'ignored-cancellations': 'pass',
      'sse-headers': 'skip',
      'get-405': 'skip',
      'idempotent-replay': 'pass',
    });
    expect(status).toBe(0);
    expect(check(report, 'client-timeouts').summary).toMatch(
      /^the maximum timeout fired at 7\d\d ms; the probe cancelled with notifications\/cancelled and nothing followed$/,
    );
    expect(
      check(report, 'cancel-before-completion').transcript.some(
        (entry) => entry.direction === '→' && entry.text.includes('"method":"notifications/cancelled"'),
      ),
    ).toBe(true);
  });

  it('SDK 1.x over Streamable HTTP (2025-11-25): the cancellation is POSTed, SSE headers are right', async () => {
    const port = await startHttp([`${SERVERS}/sdk-v1-server.mjs`, 'http', '0']);
    const { status, report } = probe([
      '--url',
      `http://127.0.0.1:${port}/mcp`,
      '--manifest',
      `${SERVERS}/well-behaved.yaml`,
      '--allow-mutations',
    ]);
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'client-timeouts': 'pass',
      'ignored-cancellations': 'pass',
      'sse-headers': 'pass',
      'idempotent-replay': 'pass',
    });
    expect(status).toBe(0);
    expect(
      check(report, 'cancel-before-completion').transcript.some((entry) =>
        entry.text.startsWith('POST {"jsonrpc":"2.0","method":"notifications/cancelled"'),
      ),
    ).toBe(true);
  });

  it('SDK 2.x over Streamable HTTP (2026-07-28, asked with server/discover): closing the stream cancels, GET gets 405', async () => {
    const port = await startHttp([`${SERVERS}/sdk-v2-server.mjs`, '0']);
    const { status, report } = probe([
      '--url',
      `http://127.0.0.1:${port}/mcp`,
      '--operation',
      'slow_job',
      '--arguments',
      '{"steps":6,"stepMs":200}',
      '--max-timeout',
      '700',
    ]);
    expect(report.revision).toBe('2026-07-28');
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'client-timeouts': 'pass',
      'ignored-cancellations': 'pass',
      'sse-headers': 'pass',
      'get-405': 'pass',
    });
    expect(status).toBe(0);
    const cancel = check(report, 'cancel-before-completion');
    expect(cancel.transcript.some((entry) => /^\[closes the response stream of request \d+\]$/.test(entry.text))).toBe(true);
    expect(cancel.transcript.some((entry) => entry.text.includes('notifications/cancelled'))).toBe(false);
  });
});

describe('probe: deliberately broken servers', () => {
  it.each([
    ['response-after-cancel', 'cancel-before-completion', /^the server sent a response at \d+ ms after the cancellation$/],
    ['progress-after-cancel', 'cancel-before-completion', /^the server sent progress 2 at \d+ ms.* after the cancellation$/],
    ['non-monotonic-progress', 'progress', /^progress 2 follows 3: not strictly increasing$/],
    [
      'error-to-cancellation',
      'ignored-cancellations',
      /^a cancellation of a request that already completed: answered with an error response/,
    ],
    ['stall', 'progress', /^no response within the probe's maximum of \d+ ms.*: the server stalls$/],
    ['early-exit', 'progress', /the server process exited \(code 3\)/],
  ])('%s: %s fails', (defect, id, summary) => {
    const { status, report } = probe([
      '--stdio',
      `node ${SERVERS}/broken-server.mjs ${defect}`,
      '--operation',
      'slow_job',
      '--max-timeout',
      '400',
    ]);
    expect(status).toBe(1);
    expect(check(report, id).status).toBe('fail');
    expect(check(report, id).summary).toMatch(summary);
  });

  it('missing SSE headers over HTTP: sse-headers fails, naming what is absent', async () => {
    const port = await startHttp([`${SERVERS}/broken-server.mjs`, 'missing-sse-headers', '0']);
    const { status, report } = probe(['--url', `http://127.0.0.1:${port}/mcp`, '--operation', 'slow_job', '--max-timeout', '400']);
    expect(status).toBe(1);
    expect(check(report, 'sse-headers')).toMatchObject({
      status: 'fail',
      summary: 'the SSE response lacks Cache-Control: no-cache, X-Accel-Buffering: no',
    });
    expect(check(report, 'cancel-before-completion').status).toBe('pass');
  });

  it('a flood is stopped with a clear report, in bounded time', () => {
    const before = Date.now();
    const { status, report } = probe(['--stdio', `node ${SERVERS}/broken-server.mjs flood`, '--operation', 'slow_job']);
    expect(Date.now() - before).toBeLessThan(30_000);
    expect(status).toBe(1);
    expect(report.observations.join(' ')).toMatch(/flooded the probe with over 20000 messages; it was stopped/);
    expect(report.checks.every((entry) => entry.status === 'fail' && /flooded/.test(entry.summary))).toBe(true);
  });

  it('garbage on stdout is named in the report', () => {
    const { status, report } = probe([
      '--stdio',
      `node ${SERVERS}/broken-server.mjs garbage`,
      '--operation',
      'slow_job',
      '--max-timeout',
      '400',
    ]);
    expect(status).toBe(1);
    expect(report.observations[0]).toMatch(/^the server wrote \d+ line\(s\) that are not JSON-RPC messages, e\.g\. "this is not JSON"$/);
  });
});

describe('probe: @modelcontextprotocol/server-everything', () => {
  const args = ['--operation', 'trigger-long-running-operation', '--arguments', '{"duration":1.2,"steps":4}', '--max-timeout', '600'];

  it('over stdio: it keeps sending progress after a cancellation (its tool ignores the abort signal)', () => {
    const { report } = probe(['--stdio', `node ${EVERYTHING} stdio`, ...args]);
    expect(report.revision).toBe('2025-11-25');
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'fail',
      'client-timeouts': 'fail',
      'ignored-cancellations': 'pass',
    });
    expect(check(report, 'cancel-before-completion').summary).toMatch(/^the server sent progress \d.* after the cancellation$/);
    expect(check(report, 'cancel-before-completion').summary).not.toMatch(/response/);
  });

  it('over Streamable HTTP: the same, with the right SSE headers', async () => {
    const port = await freePort();
    await startHttp([EVERYTHING, 'streamableHttp'], { PORT: String(port) });
    const { report } = probe(['--url', `http://127.0.0.1:${port}/mcp`, ...args]);
    expect(report.revision).toBe('2025-11-25');
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'fail',
      'ignored-cancellations': 'pass',
      'sse-headers': 'pass',
    });
  });
});

describe('probe and init: usage and scaffolding', () => {
  it.each([
    [['probe'], /give exactly one of --stdio/],
    [['probe', '--stdio', 'x', '--url', 'http://127.0.0.1:1/mcp'], /give exactly one of --stdio/],
    [['probe', '--url', 'ftp://127.0.0.1/mcp'], /is not an http:\/\/ or https:\/\/ URL/],
    [['probe', '--stdio', 'node x.js', '--arguments', '[1]'], /expected a JSON object/],
  ])('%j exits 2', (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('a command that cannot start is reported, not thrown', () => {
    const run = runCli(['probe', '--stdio', 'definitely-not-a-program-mcprely', '--max-time', '5000']);
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(
      /FAIL {2}the probe could not start: .*the command could not start: spawn definitely-not-a-program-mcprely ENOENT/,
    );
    expect(showsStackTrace(run.stdout + run.stderr)).toBe(false);
  });

  it('init writes a manifest from tools/list that lint then reports, hints marked unverified', () => {
    const run = runCli(['init', '--from-stdio', `node ${SERVERS}/sdk-v1-server.mjs stdio`]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        '- name: charge\\n {4}method: tools\\/call\\n {4}description: "Charges an account once per idempotency key"\\n' +
          ' {4}sideEffect: idempotent # unverified: inferred from idempotentHint: true',
      ),
    );
    const file = join(mkdtempSync(join(tmpdir(), 'mcprely-init-')), 'manifest.yaml');
    writeFileSync(file, run.stdout);
    const lint = runCli(['lint', file, '--format', 'json']);
    expect(lint.status).toBe(1);
    const rules = new Set((JSON.parse(lint.stdout).files[0].findings as { ruleId: string }[]).map((finding) => finding.ruleId));
    for (const rule of ['unverified-fields', 'deadline-max-required', 'deadline-idle-required']) expect(rules).toContain(rule);
  });
});
