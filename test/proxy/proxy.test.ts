import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';
import { EVERYTHING, HOSTILE } from '../probe/probe-harness.js';
import { callSlowJob, handshake, judged, nextTrace, rawProxy, sdkDirect, sdkThroughProxy, work } from './stdio-proxy-harness.js';

// The proxy's wiring over stdio: an SDK client through it, audit of its trace, its end and its usage errors. The
// judges on real sessions through it (cancellation, timeouts, retries, each defect): proxy-sessions.test.ts, npm run
// test:live; the judges' logic is tabled in process in test/judges/.

// Sequential: the judges read real timing, and parallel processes on two cores would blur it.
describe('mcprely proxy over stdio, with real parties', () => {
  it('server-everything: the SDK client gets the same answers with the proxy as without, and the trace records the session', async () => {
    const server = [EVERYTHING, 'stdio'];
    const direct = await sdkDirect(server);
    const proxied = await sdkThroughProxy(server);
    const ask = async (client: Client) => ({
      tools: (await client.listTools()).tools.map((tool) => tool.name).sort(),
      echo: await client.callTool({ name: 'echo', arguments: { message: 'héllo ✓ "quoted"\nnew line' } }),
      sum: await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } }),
    });
    const [withProxy, without] = [await ask(proxied.client), await ask(direct)];
    await direct.close();
    const summary = await proxied.close();
    expect(withProxy).toEqual(without);
    expect(withProxy.tools.length).toBeGreaterThan(5);
    expect(summary).toMatch(/mcprely proxy: \d+ messages relayed/);
    expect(showsStackTrace(summary)).toBe(false);
    const verdict = judged(proxied.trace);
    expect(verdict['client-request-ids-unique']?.status).toBe('pass');
    expect(verdict['server-answers-only-requests']?.status).toBe('pass');
    expect(verdict['server-silent-after-cancel']?.status).toBe('inconclusive');
  });
});

describe('deliberately bad clients through the proxy', () => {
  it('mcprely audit reads the proxy trace: findings at the trace lines, exit 1 on an error-level one, exit 2 for a bad trace', async () => {
    const trace = nextTrace('raw');
    const proxy = rawProxy([HOSTILE, 'none'], trace);
    await handshake(proxy);
    proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await proxy.answered(1);
    proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await proxy.answered(1);
    await proxy.end();
    const lines = readFileSync(trace, 'utf8').trimEnd().split('\n');
    const reuse = lines.findLastIndex((line) => line.includes('"tools/list"')) + 1;
    const audit = runCli(['audit', trace, '-f', 'json']);
    expect(audit.status).toBe(1);
    const findings = JSON.parse(audit.stdout).files[0].findings;
    expect(findings).toEqual([
      expect.objectContaining({
        ruleId: 'client-request-ids-unique',
        severity: 'error',
        range: expect.objectContaining({ start: { line: reuse, column: 1 } }),
      }),
    ]);
    const bad = runCli(['audit', join(work, 'missing.jsonl'), trace]);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toMatch(/missing\.jsonl\n\s+1:1\s+error\s+No file exists/);
    expect(bad.stdout).toMatch(/client-request-ids-unique/);
  });

  it("mcprely audit --manifest: a real session judged against the operation's claims, drift at the manifest's lines", async () => {
    // slow_job sends progress every 150 ms: its answer at about 600 ms: maxIntervalMs 400 holds, minIntervalMs 500 does not.
    const manifest = join(work, 'hostile.yaml');
    writeFileSync(
      manifest,
      [
        'mcprely: 1',
        'specVersion: "2025-11-25"',
        'server: { name: hostile, transports: [stdio] }',
        'operations:',
        '  - name: slow_job',
        '    method: tools/call',
        '    sideEffect: none',
        '    timeouts: { idleMs: 5000, maxMs: 20000 }',
        '    progress: { emits: true, minIntervalMs: 500, maxIntervalMs: 400 }',
        '    cancellation: { stopsWork: immediately, suppressResponseAfterCancel: true }',
        '',
      ].join('\n'),
    );
    const session = async (defect: string, cancelAfterMs?: number) => {
      const trace = nextTrace('raw');
      const proxy = rawProxy([HOSTILE, defect], trace);
      await handshake(proxy);
      callSlowJob(proxy);
      if (cancelAfterMs === undefined) await proxy.answered(1);
      else {
        await new Promise((resolve) => setTimeout(resolve, cancelAfterMs));
        proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
        await new Promise((resolve) => setTimeout(resolve, 800));
      }
      await proxy.end();
      return trace;
    };
    const answered = await session('none');
    const audit = runCli(['audit', answered, '--manifest', manifest, '-f', 'json']);
    expect(audit.status, audit.stderr).toBe(1);
    const files = JSON.parse(audit.stdout).files as {
      file: string;
      findings: { ruleId: string; range: { start: { line: number } }; message: string }[];
    }[];
    const drift = files.find((file) => file.file.endsWith('hostile.yaml'))?.findings ?? [];
    expect(drift).toEqual([
      expect.objectContaining({ ruleId: 'drift-progress', range: expect.objectContaining({ start: { line: 9, column: 45 } }) }),
    ]);
    expect(drift[0]?.message).toMatch(
      /^slow_job: progress\.minIntervalMs is 500, but in .*raw-\d+\.jsonl 4 progress notifications .* came every 1\d\d ms/,
    );
    const page = join(work, 'session.html');
    const stylish = runCli(['audit', answered, '--manifest', manifest, '--html', page]);
    // The page of the session: the verdict, the claims, and a diagram of the messages that decided the failure.
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('data-verdict>1 claim(s) of the manifest contradicted');
    expect(html).toMatch(
      /<li><span class="mark mark-fail">contradicted<\/span> <code>slow_job<\/code> <code>progress.minIntervalMs: 500<\/code>/,
    );
    expect(html).toMatch(/C-&gt;&gt;S: \d+\u00a0ms tools\/call \(id\u00a01\)/);
    const twoTraces = runCli(['audit', answered, answered, '--html', page]);
    expect(twoTraces.status).toBe(2);
    expect(twoTraces.stderr).toMatch(/--html draws one session: name one trace \(2 given\)/);
    expect(stylish.stdout).toMatch(
      /SEEN +slow_job progress\.maxIntervalMs: 400 — tools\/call slow_job \(id 1\) had progress at least every 400 ms/,
    );
    expect(stylish.stdout).toMatch(/INCONCLUSIVE +slow_job cancellation\.stopsWork: immediately — no request was cancelled/);
    expect(stylish.stdout).toMatch(/SEEN +slow_job progress\.emits: true — tools\/call slow_job \(id 1\) asked for progress and got it/);

    const ignored = await session('progress-after-cancel', 200);
    const cancelled = runCli(['audit', ignored, '--manifest', manifest, '-f', 'json']);
    const claims = JSON.parse(cancelled.stdout).files.find((file: { file: string }) => file.file.endsWith('hostile.yaml')).findings;
    expect(claims.map((one: { ruleId: string; path: string }) => [one.ruleId, one.path])).toContainEqual([
      'drift-cancellation',
      '/operations/0/cancellation/stopsWork',
    ]);
    // The manifest's idle timeout (5 000 ms) is what the client is judged against: the cancellation at 200 ms says nothing of it.
    const verdict = runCli(['audit', ignored, '--manifest', manifest]).stdout;
    expect(verdict).toMatch(/INCONCLUSIVE +client-cancels-on-idle-timeout \(client\): no request outlived its idle timeout/);

    const missing = runCli(['audit', answered, '--manifest', join(work, 'nope.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.stdout + missing.stderr).toMatch(/nope\.yaml/);
    expect(showsStackTrace(missing.stdout + missing.stderr)).toBe(false);
  });

  it('SIGTERM to the proxy: the server is ended, the verdict and the end of the trace are written, exit 128 + 15', async () => {
    const trace = nextTrace('raw');
    const proxy = rawProxy([HOSTILE, 'none'], trace);
    await handshake(proxy);
    proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await proxy.answered(1);
    const { code, stderr } = await proxy.interrupt('SIGTERM');
    expect(code).toBe(143);
    expect(stderr).toMatch(/mcprely proxy: \d+ messages relayed, interrupted \(SIGTERM\)/);
    expect(stderr).toMatch(/PASS +client-request-ids-unique/);
    expect(readFileSync(trace, 'utf8').trimEnd().split('\n').at(-1)).toMatch(/"end":"interrupted \(SIGTERM\)"/);
  });

  it('a server command that cannot start: a clear error and exit 2, no stack trace', () => {
    const run = runCli(['proxy', '--', 'definitely-not-a-program-mcprely']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/error: the program "definitely-not-a-program-mcprely" was not found/);
    expect(showsStackTrace(run.stderr)).toBe(false);
    expect(run.stdout).toBe('');
    for (const [args, said] of [
      [[], /give the server command: mcprely proxy --stdio/],
      [['--stdio', 'node x', '--', 'node', 'y'], /give the server command once/],
      [['--stdio', "node 'x"], /unclosed single quote/],
      [
        ['--record', join(work, 'no-such-folder', 't.jsonl'), '--', 'node', '-e', '1'],
        /cannot write the trace .*: its folder does not exist/,
      ],
    ] as const) {
      const usage = runCli(['proxy', ...args]);
      expect(usage.status, args.join(' ')).toBe(2);
      expect(usage.stderr).toMatch(said);
      expect(showsStackTrace(usage.stderr)).toBe(false);
    }
  });
});
