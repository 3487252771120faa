import { describe, expect, it } from 'vitest';
import { showsStackTrace } from '../helpers/run-cli.js';
import { HOSTILE } from '../probe/probe-harness.js';
import { callSlowJob, handshake, judged, nextTrace, rawProxy, sdkThroughProxy } from './stdio-proxy-harness.js';

// npm run test:live: the judges on real sessions through the stdio proxy, each a few seconds of real timing (the SDK
// client's timeouts, deliberately bad clients, each hostile defect). npm test keeps the wiring: proxy.test.ts.

// Sequential: the judges read real timing, and parallel processes on two cores would blur it.
describe('mcprely proxy over stdio, with real parties', () => {
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

describe('deliberately bad clients through the proxy', () => {
  it('a client that cancels at its maximum while progress still comes passes the maximum and only-pending judges', async () => {
    // The counterpart of the SDK client's maxTotalTimeout above (which fails both): progress every 150 ms, so the idle
    // timeout never fires; the maximum of 300 ms does, and the cancellation names a request still without its answer.
    const trace = nextTrace('raw');
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
      const trace = nextTrace('raw');
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

  it('the verdict as the session goes: a failure is told on stderr while the session runs, once; a good session tells none', async () => {
    const live = async (defect: string) => {
      const proxy = rawProxy([HOSTILE, defect], nextTrace('raw'));
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
      const trace = nextTrace('raw');
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
});
