import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import type { ClientReport } from '../probe-client/client-report-file.js';
import { HOSTILE, type Report, startHttp, stopServers } from '../probe/probe-harness.js';
import { spawnHttpProxy, spawnListening } from '../proxy/http-proxy-process.js';

// Every credential a live command meets — its own --header, the URL's user:pass and query token, a host's or a
// client's Authorization and Cookie, a server's Set-Cookie — must appear in none of its outputs: standard output and
// error, the trace, the report in every format, the page. Each secret is unique to the run, so any copy is a leak.
const secret = (what: string) => `${what}-${randomUUID()}`;
const SECRETS = {
  bearer: secret('bearer'),
  apiKey: secret('api-key'),
  password: secret('password'),
  query: secret('query'),
  setCookie: secret('set-cookie'),
  hostBearer: secret('host-bearer'),
  hostCookie: secret('host-cookie'),
  proxyKey: secret('proxy-key'),
  clientBearer: secret('client-bearer'),
  clientCookie: secret('client-cookie'),
};
/** The secrets by name, and the URL's user:pass as Basic authorization would carry it. */
const FORBIDDEN: [string, string][] = [
  ...Object.entries(SECRETS),
  ['basic', Buffer.from(`probe-user:${SECRETS.password}`).toString('base64')],
];

const RAW_CLIENT = fileURLToPath(new URL('../probe-client/clients/raw-client.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mcprely-secrets-'));
afterAll(() => {
  stopServers();
  rmSync(work, { recursive: true, force: true });
});

/** Every file under `folder`, as text. */
function filesUnder(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const path = join(folder, name);
    if (statSync(path).isFile()) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

/** No secret in any output of the runs, nor in any file written in `folder` (which must hold `expected` files at least). */
function expectNoSecrets(folder: string, runs: readonly { stdout: string; stderr: string }[], expected: number): void {
  const files = filesUnder(folder);
  expect(files.size).toBeGreaterThanOrEqual(expected);
  const outputs: [string, string][] = [
    ...files,
    ...runs.flatMap((run, index): [string, string][] => [
      [`stdout of run ${index + 1}`, run.stdout],
      [`stderr of run ${index + 1}`, run.stderr],
    ]),
  ];
  for (const [where, text] of outputs) {
    for (const [name, forbidden] of FORBIDDEN) expect(text.includes(forbidden), `the ${name} secret in ${where}`).toBe(false);
    expect(showsStackTrace(text), where).toBe(false);
  }
}

const requires = (headers: Record<string, string>) =>
  Object.entries(headers).flatMap(([name, value]) => ['--require-header', `${name}: ${value}`]);

describe('no credential reaches an output of the live commands', () => {
  it('probe, init, drift, verify and evidence --url with --header, user:pass and a query token; audit --html of the trace', {
    timeout: 120_000,
  }, async () => {
    const folder = mkdtempSync(join(work, 'probe-'));
    const at = (name: string) => join(folder, name);
    // The server answers 401 to a request without each credential: the probe passes only by sending them. It quotes
    // what it got (URL and headers) in its 401 body and its initialize result, as a careless server may.
    const server = await startHttp([
      HOSTILE,
      'none',
      '--http',
      '0',
      ...requires({ Authorization: `Bearer ${SECRETS.bearer}`, 'X-Api-Key': SECRETS.apiKey }),
      '--require-query',
      `token=${SECRETS.query}`,
      '--set-cookie',
      `sid=${SECRETS.setCookie}`,
      '--echo-credentials',
    ]);
    const url = `http://probe-user:${SECRETS.password}@127.0.0.1:${server.port}/mcp?token=${SECRETS.query}`;
    const headers = ['--header', `Authorization: Bearer ${SECRETS.bearer}`, '--header', `X-Api-Key: ${SECRETS.apiKey}`];
    const runs: CliRun[] = [];
    const run = async (args: readonly string[]) => {
      const done = await runCliAsync(args);
      runs.push(done);
      return done;
    };
    // Without the API key the server refuses the handshake (and that failure leaks nothing either).
    const refused = await run(['probe', '--url', url, headers[0]!, headers[1]!, '-f', 'json', '--record', at('refused.jsonl')]);
    expect((JSON.parse(refused.stdout) as Report).problem).toMatch(
      /HTTP 401: unauthorized: \/mcp\?token=\[redacted\] \{.*"authorization":"\[redacted\]"/,
    );
    const formats = ['json', 'sarif', 'junit', 'markdown', 'github'].flatMap((format) => ['-f', format, '-o', at(`probe.${format}`)]);
    const probed = await run([
      'probe',
      '--url',
      url,
      ...headers,
      '--grace',
      '200',
      '--record',
      at('probe.jsonl'),
      ...formats,
      '-f',
      'stylish',
    ]);
    expect(probed.status, probed.stderr).toBe(0);
    const report = JSON.parse(readFileSync(at('probe.json'), 'utf8')) as Report;
    expect(report.startedOk).toBe(true);
    expect(report.checks.find((check) => check.id === 'progress')?.status).toBe('pass');
    expect(probed.stdout).toMatch(new RegExp(`^mcprely probe http://127\\.0\\.0\\.1:${server.port}/mcp \\(streamable-http`));
    expect(readFileSync(at('probe.jsonl'), 'utf8')).toMatch(/"method":"tools\/call"/);
    expect(readFileSync(at('probe.jsonl'), 'utf8')).toMatch(/"instructions":"you sent \/mcp\?token=\[redacted\] /);
    const audited = await run([
      'audit',
      at('probe.jsonl'),
      '--html',
      at('audit.html'),
      '-f',
      'sarif',
      '-o',
      at('audit.sarif'),
      '-f',
      'stylish',
    ]);
    expect(audited.status, audited.stderr).not.toBe(2);
    const init = await run(['init', '--from-url', url, ...headers, '-o', at('manifest.yaml')]);
    expect(init.status, init.stderr).toBe(0);
    expect(readFileSync(at('manifest.yaml'), 'utf8')).toMatch(/name: slow_job/);
    const drift = await run([
      'drift',
      at('manifest.yaml'),
      '--url',
      url,
      ...headers,
      '--grace',
      '200',
      '-f',
      'sarif',
      '-o',
      at('drift.sarif'),
    ]);
    expect(drift.status, drift.stderr).not.toBe(2);
    const verify = await run([
      'verify',
      at('manifest.yaml'),
      '--url',
      url,
      ...headers,
      '--grace',
      '200',
      '-f',
      'json',
      '-o',
      at('verify.json'),
    ]);
    expect(verify.status, verify.stderr).not.toBe(2);
    const evidence = await run(['evidence', at('manifest.yaml'), '-o', at('evidence'), '--url', url, ...headers, '--grace', '200']);
    expect(evidence.status, evidence.stderr).not.toBe(2);
    expect(readFileSync(at('evidence/live/probe.json'), 'utf8')).toMatch(/"startedOk": true/);
    server.stop();
    expectNoSecrets(folder, runs, 15);
  });

  it('proxy --url --header, the host sending Authorization and Cookie; audit --html of its trace', { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(work, 'proxy-'));
    const at = (name: string) => join(folder, name);
    // The upstream wants the host's credentials and the proxy's key: the host's own X-Api-Key would be refused.
    const server = await startHttp([
      HOSTILE,
      'none',
      '--http',
      '0',
      ...requires({ Authorization: `Bearer ${SECRETS.hostBearer}`, Cookie: `sid=${SECRETS.hostCookie}`, 'X-Api-Key': SECRETS.proxyKey }),
      '--require-query',
      `token=${SECRETS.query}`,
      '--set-cookie',
      `sid=${SECRETS.setCookie}`,
    ]);
    const proxy = await spawnHttpProxy(`http://127.0.0.1:${server.port}/mcp?token=${SECRETS.query}`, [
      '--header',
      `X-Api-Key: ${SECRETS.proxyKey}`,
      '--record',
      at('proxy.jsonl'),
    ]);
    let stopped: Awaited<ReturnType<typeof proxy.stop>>;
    try {
      const client = new Client({ name: 'secrets-test', version: '1' });
      const headers = { Authorization: `Bearer ${SECRETS.hostBearer}`, Cookie: `sid=${SECRETS.hostCookie}`, 'X-Api-Key': 'the-host-key' };
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers } }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('slow_job');
      expect((await client.callTool({ name: 'slow_job', arguments: {} })).isError).not.toBe(true);
      await client.close();
    } finally {
      stopped = await proxy.stop();
      server.stop();
    }
    expect(stopped.code).toBe(0);
    expect(readFileSync(at('proxy.jsonl'), 'utf8')).toMatch(/"method":"tools\/call"/);
    const audited = await runCliAsync(['audit', at('proxy.jsonl'), '--html', at('audit.html'), '-f', 'json', '-o', at('audit.json')]);
    expect(audited.status, audited.stderr).not.toBe(2);
    expectNoSecrets(folder, [stopped, audited], 3);
  });

  it('probe-client --listen, the client sending Authorization and Cookie', { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(work, 'probe-client-'));
    const at = (name: string) => join(folder, name);
    const probeClient = await spawnListening([
      'probe-client',
      '--listen',
      '127.0.0.1:0',
      '--idle-timeout',
      '2000',
      '--max-timeout',
      '5000',
      '--record',
      at('client.jsonl'),
      '--report-json',
      at('report.json'),
      '--html',
      at('sessions.html'),
      '-f',
      'sarif',
      '-o',
      at('report.sarif'),
    ]);
    const client = spawn(process.execPath, [
      RAW_CLIENT,
      '--header',
      `Authorization: Bearer ${SECRETS.clientBearer}`,
      '--header',
      `Cookie: sid=${SECRETS.clientCookie}`,
      '--scenario',
      'answers_after',
      '--args',
      '{"ms":50}',
      probeClient.url,
    ]);
    const clientExit = await new Promise<number | null>((resolve) => client.on('close', resolve));
    const stopped = await probeClient.stop();
    expect(clientExit).toBe(0);
    const report = JSON.parse(readFileSync(at('report.json'), 'utf8')) as ClientReport;
    const answered = report.outcomes.find((outcome) => outcome.scenario === 'answers_after');
    expect(answered?.cases.length, stopped.stderr).toBeGreaterThan(0);
    expectNoSecrets(folder, [stopped], 4);
  });
});
