import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../src/judges/trace-format.js';
import { judgeSession } from '../../src/judges/judge-session.js';
import { CLI, REPO_ROOT, runCli, showsStackTrace } from '../helpers/run-cli.js';
import { EVERYTHING, HOSTILE } from '../probe/probe-harness.js';

const work = mkdtempSync(join(tmpdir(), 'mcprely-proxy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let traces = 0;

/** An SDK client whose server command is the proxy in front of `server` (what a host's configuration would hold). */
async function sdkThroughProxy(server: readonly string[], judgeArgs: readonly string[] = []) {
  const trace = join(work, `trace-${++traces}.jsonl`);
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

async function sdkDirect(server: readonly string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...server], cwd: REPO_ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'proxy-test', version: '1' });
  await client.connect(transport);
  return client;
}

function judged(trace: string, options: { idleTimeoutMs?: number; maxTimeoutMs?: number; toleranceMs?: number } = {}) {
  const read = readTrace(readFileSync(trace, 'utf8'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const verdict = judgeSession(read.transcript, { toleranceMs: 300, graceMs: 100, ...options });
  return Object.fromEntries(verdict.judgements.map((one) => [one.judge, one]));
}

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

  it('a server that stops when cancelled passes; one that keeps sending progress fails — the SDK client cancelling at its timeout', async () => {
    const outcome = async (defect: string) => {
      // slow_job: progress every 300 ms, the answer at 1 200 ms; the client times out at 450 ms.
      const proxied = await sdkThroughProxy([HOSTILE, defect, '--step-ms', '300'], ['--idle-timeout', '450']);
      await expect(
        proxied.client.callTool({ name: 'slow_job', arguments: {} }, undefined, { timeout: 450, onprogress: () => {} }),
      ).rejects.toThrow(/timed out/i);
      await new Promise((resolve) => setTimeout(resolve, 900));
      const summary = await proxied.close();
      return { verdict: judged(proxied.trace, { idleTimeoutMs: 450 }), summary };
    };
    const [good, bad] = [await outcome('none'), await outcome('progress-after-cancel')];
    expect(good.verdict['server-silent-after-cancel']?.status, JSON.stringify(good.verdict)).toBe('pass');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status).toBe('pass');
    expect(bad.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(bad.verdict['server-silent-after-cancel']?.summary).toMatch(/sent progress for tools\/call slow_job/);
    // The proxy judged the same as audit does, and said so on exit.
    expect(bad.summary).toMatch(/FAIL +server-silent-after-cancel/);
    expect(good.summary).toMatch(/PASS +client-cancels-on-idle-timeout/);
  });

  it("the SDK client's maxTotalTimeout with progress: the caller is rejected but the server is not told; the cancellation comes after the answer", async () => {
    // @modelcontextprotocol/sdk 1.x: a maximum passed while progress resets the timer rejects the caller from the
    // progress handler and sends no notifications/cancelled; the idle timer it leaves running sends one a whole
    // idle period later — here after slow_job (600 ms) has answered.
    // slow_job: progress every 400 ms, the answer at 1 600 ms; the maximum is 600 ms, the idle timeout 2 000 ms.
    const proxied = await sdkThroughProxy([HOSTILE, 'none', '--step-ms', '400']);
    await expect(
      proxied.client.callTool({ name: 'slow_job', arguments: {} }, undefined, {
        timeout: 2000,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: 600,
        onprogress: () => {},
      }),
    ).rejects.toThrow(/Maximum total timeout/);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await proxied.close();
    const verdict = judged(proxied.trace, { maxTimeoutMs: 600, toleranceMs: 200 });
    expect(verdict['client-enforces-maximum']?.status).toBe('fail');
    expect(verdict['client-enforces-maximum']?.summary).toMatch(
      /extended by progress\) without a cancellation \(its answer came \d+ ms later\)/,
    );
    expect(verdict['client-cancels-only-pending']?.status).toBe('fail');
    expect(verdict['client-cancels-only-pending']?.summary).toMatch(/ms after its answer arrived/);
  });
});

/** The proxy in front of `server`, driven by the test as a raw client: lines in, lines out. */
function rawProxy(server: readonly string[], trace: string) {
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

async function handshake(proxy: ReturnType<typeof rawProxy>) {
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
function callSlowJob(proxy: ReturnType<typeof rawProxy>) {
  proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_job', arguments: {}, _meta: { progressToken: 'p-1' } } });
}

describe('deliberately bad clients through the proxy', () => {
  it('a client that cancels at its maximum while progress still comes passes the maximum and only-pending judges', async () => {
    // The counterpart of the SDK client's maxTotalTimeout above (which fails both): progress every 150 ms, so the idle
    // timeout never fires; the maximum of 300 ms does, and the cancellation names a request still without its answer.
    const trace = join(work, `raw-${++traces}.jsonl`);
    const proxy = rawProxy([HOSTILE, 'none'], trace);
    await handshake(proxy);
    callSlowJob(proxy);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'maximum timeout' } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await proxy.end();
    const verdict = judged(trace, { idleTimeoutMs: 1000, maxTimeoutMs: 300 });
    expect(verdict['client-enforces-maximum']?.status, JSON.stringify(verdict['client-enforces-maximum'])).toBe('pass');
    expect(verdict['client-cancels-only-pending']?.status, JSON.stringify(verdict['client-cancels-only-pending'])).toBe('pass');
    expect(verdict['server-silent-after-cancel']?.status).toBe('pass');
  });

  it('a client that never cancels at its timeout, and re-sends a call with a new key, fails both judges; a good retry passes', async () => {
    const run = async (retryKey: string) => {
      const trace = join(work, `raw-${++traces}.jsonl`);
      const proxy = rawProxy([HOSTILE, 'none'], trace);
      await handshake(proxy);
      const call = (id: number, key: string) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'slow_job', arguments: { idempotencyKey: key }, _meta: { progressToken: id } },
      });
      proxy.send(call(1, 'key-1'));
      // Gives up after 200 ms without telling the server, and sends the call again.
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.send(call(2, retryKey));
      await proxy.answered(2);
      await proxy.answered(1);
      const { code, stderr } = await proxy.end();
      expect(code).toBe(0);
      expect(showsStackTrace(stderr)).toBe(false);
      return judged(trace, { idleTimeoutMs: 100 });
    };
    const [bad, good] = [await run('key-2'), await run('key-1')];
    expect(bad['client-cancels-on-idle-timeout']?.status, JSON.stringify(bad['client-cancels-on-idle-timeout'])).toBe('fail');
    expect(bad['client-retry-keeps-key']?.status).toBe('fail');
    expect(bad['client-retry-keeps-key']?.summary).toMatch(/new idempotency key/);
    expect(good['client-retry-keeps-key']?.status).toBe('pass');
  });

  it('mcprely audit reads the proxy trace: findings at the trace lines, exit 1 on an error-level one, exit 2 for a bad trace', async () => {
    const trace = join(work, `raw-${++traces}.jsonl`);
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
      const trace = join(work, `raw-${++traces}.jsonl`);
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

  it('the verdict as the session goes: a failure is told on stderr while the session runs, once; a good session tells none', async () => {
    const live = async (defect: string) => {
      const proxy = rawProxy([HOSTILE, defect], join(work, `raw-${++traces}.jsonl`));
      await handshake(proxy);
      callSlowJob(proxy);
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      // progress-after-cancel keeps reporting for 2 s: the judges (every second) see it before the session ends.
      let told = '';
      for (let waited = 0; waited < 3000 && !/FAIL/.test(told); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        told = proxy.stderr();
      }
      const { stderr } = await proxy.end();
      return { told, stderr };
    };
    const bad = await live('progress-after-cancel');
    expect(bad.told).toMatch(
      /^mcprely proxy: FAIL server-silent-after-cancel \(server\): the server sent progress for tools\/call slow_job \(id 1\) /m,
    );
    expect(bad.told).toMatch(/\d+ ms after the client cancelled it \(trace line \d+\)$/m);
    expect(bad.stderr.match(/mcprely proxy: FAIL server-silent-after-cancel/g)).toHaveLength(1);
    expect(bad.stderr).toMatch(/FAIL +server-silent-after-cancel \(server\)/);
    const good = await live('none');
    expect(good.stderr).not.toMatch(/mcprely proxy: FAIL/);
  });

  it('the server judges fail on the hostile server of each defect, and pass on the well-behaved one', async () => {
    const judgedOn = async (defect: string) => {
      const trace = join(work, `raw-${++traces}.jsonl`);
      const proxy = rawProxy([HOSTILE, defect], trace);
      await handshake(proxy);
      callSlowJob(proxy);
      await proxy.answered(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await proxy.end();
      return judged(trace);
    };
    const [monotonic, nonMonotonic, double] = [
      await judgedOn('none'),
      await judgedOn('non-monotonic-progress'),
      await judgedOn('double-response'),
    ];
    expect(monotonic['server-progress-increases']?.status).toBe('pass');
    expect(monotonic['server-progress-for-active-requests']?.status).toBe('pass');
    expect(monotonic['server-answers-only-requests']?.status).toBe('pass');
    expect(nonMonotonic['server-progress-increases']?.summary).toMatch(/went from 3 to 2/);
    expect(double['server-answers-only-requests']?.status).toBe('fail');
  });

  it('SIGTERM to the proxy: the server is ended, the verdict and the end of the trace are written, exit 128 + 15', async () => {
    const trace = join(work, `raw-${++traces}.jsonl`);
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
