import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HOSTILE, startHttp } from '../probe/probe-harness.js';
import { httpProxy, judged, sdkClient } from './http-proxy-harness.js';

// npm run test:live: the judges on real sessions through the HTTP proxy, each a few seconds of real timing. npm test
// keeps the wiring: http-proxy.test.ts.

// Sequential: the judges read real timing, and parallel processes on two cores would blur it.
describe('mcprely proxy over Streamable HTTP, with real parties', () => {
  it('a server that stops when cancelled passes; one that keeps sending progress fails — the SDK client cancelling at its timeout', {
    timeout: 30_000,
  }, async () => {
    const outcome = async (defect: string) => {
      const server = await startHttp([HOSTILE, defect, '--http', '0', '--step-ms', '300']);
      const proxy = await httpProxy(`http://127.0.0.1:${server.port}/mcp`, ['--idle-timeout', '450']);
      const client = await sdkClient(proxy.url);
      // slow_job: progress every 300 ms, the answer at 1 200 ms; the client times out at 450 ms.
      await expect(client.callTool({ name: 'slow_job', arguments: {} }, undefined, { timeout: 450, onprogress: () => {} })).rejects.toThrow(
        /timed out/i,
      );
      await new Promise((resolve) => setTimeout(resolve, 900));
      await client.close();
      const { stderr } = await proxy.stop();
      server.stop();
      return { ...judged(proxy.trace, { idleTimeoutMs: 450 }), stderr };
    };
    const [good, bad, bare] = [await outcome('none'), await outcome('progress-after-cancel'), await outcome('missing-sse-headers')];
    expect(good.verdict['server-silent-after-cancel']?.status, JSON.stringify(good.verdict)).toBe('pass');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status).toBe('pass');
    expect(good.verdict['server-sse-headers']?.status).toBe('pass');
    expect(good.verdict['server-messages-on-own-stream']?.status).toBe('pass');
    // 2025-11-25: the SDK client closing its stream is not the cancellation; it POSTs notifications/cancelled.
    expect(good.read.transcript.streams?.some((stream) => stream.closed?.by === 'client')).toBe(true);
    expect(bare.verdict['server-sse-headers']?.summary).toMatch(
      /^the SSE response of POST \d+ lacks Cache-Control: no-cache, X-Accel-Buffering: no$/,
    );
    expect(bare.verdict['server-silent-after-cancel']?.status).toBe('pass');
    expect(bad.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(bad.verdict['server-silent-after-cancel']?.summary).toMatch(/sent progress for tools\/call slow_job/);
    expect(bad.stderr).toMatch(/FAIL +server-silent-after-cancel/);
  });
});

/**
 * A bare 2026-07-28 client: POSTs a tools/call of slow_job (progress token = id, unless `progress: false`) and reads its SSE stream; closes the
 * stream after `closeAfterMs` (the revision's cancellation), or reads it to its end. Resolves when the stream is over.
 */
function call2026(
  url: string,
  id: number,
  options: { closeAfterMs?: number; lastEventId?: string; method?: string; progress?: false } = {},
) {
  const method = options.method ?? 'tools/call';
  const meta = options.progress === false ? {} : { _meta: { progressToken: id } };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: method === 'tools/call' ? { name: 'slow_job', arguments: {}, ...meta } : {},
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
  };
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('close', () => resolve(text));
    });
    req.on('error', (error) => (req.destroyed ? resolve(text) : reject(error)));
    if (options.closeAfterMs !== undefined) setTimeout(() => req.destroy(), options.closeAfterMs);
    req.end(body);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mcprely proxy over Streamable HTTP on 2026-07-28: the stream is the cancellation', () => {
  /** One session through the proxy to the hostile server of `defect` (2026-07-28, progress every 150 ms, the answer at 600 ms). */
  async function session(defect: string, client: (url: string) => Promise<unknown>) {
    const server = await startHttp([HOSTILE, defect, '--http', '0', '--revision', '2026-07-28']);
    const proxy = await httpProxy(`http://127.0.0.1:${server.port}/mcp`);
    await client(proxy.url);
    await proxy.stop();
    server.stop();
    return judged(proxy.trace, { idleTimeoutMs: 200 });
  }
  /** Cancels its call at the idle timeout by closing the stream, then sends a later request (a stream the server may misuse). */
  const closesAtTimeout = async (url: string) => {
    await call2026(url, 1, { closeAfterMs: 200 });
    await pause(700);
    await call2026(url, 2, { method: 'tools/list' });
  };

  it('a client that closes the stream at its timeout passes; the server that then stays silent passes, one that writes the answer into a later stream fails', {
    timeout: 30_000,
  }, async () => {
    const good = await session('none', closesAtTimeout);
    expect(good.read.transcript.streams?.find((stream) => stream.id === 'POST 1')?.closed?.by).toBe('client');
    expect(good.verdict['client-cancels-on-idle-timeout']?.status, JSON.stringify(good.verdict['client-cancels-on-idle-timeout'])).toBe(
      'pass',
    );
    expect(good.verdict['server-silent-after-cancel']?.status).toBe('pass');
    expect(good.verdict['server-messages-on-own-stream']?.status).toBe('pass');
    expect(good.verdict['server-sse-headers']?.status).toBe('pass');
    const held = await session('held-for-next-stream', closesAtTimeout);
    expect(held.verdict['server-silent-after-cancel']?.status).toBe('fail');
    expect(held.verdict['server-silent-after-cancel']?.summary).toMatch(
      /for tools\/call slow_job \(id 1\) \d+ ms after the client cancelled it/,
    );
    expect(held.verdict['server-messages-on-own-stream']?.summary).toMatch(
      /for tools\/call slow_job \(id 1\) came on POST 2, not on POST 1/,
    );
    // The cancelled call's progress written into another call's open stream.
    const crossed = await session('cross-stream', (url) => Promise.all([call2026(url, 1, { closeAfterMs: 200 }), call2026(url, 2)]));
    expect(crossed.verdict['server-messages-on-own-stream']?.status).toBe('fail');
    const misplaced = crossed.verdict['server-messages-on-own-stream']?.cases
      .filter((one) => one.status === 'fail')
      .map((one) => one.message);
    expect(misplaced).toContain('progress for tools/call slow_job (id 1) came on POST 2, not on POST 1, the stream of the request');
    expect(crossed.verdict['server-silent-after-cancel']?.status).toBe('fail');
  });

  it('a client that never closes a timed-out call fails; one that resumes with Last-Event-ID fails; one that re-sends a lost call passes', {
    timeout: 30_000,
  }, async () => {
    // Without progress nothing resets the idle timer: the answer at 600 ms is past the 200 ms timeout (and its tolerance).
    const waits = await session('none', (url) => call2026(url, 1, { progress: false }));
    expect(waits.verdict['client-cancels-on-idle-timeout']?.summary).toMatch(
      /^tools\/call slow_job \(id 1\) passed its idle timeout \(200 ms\) without a cancellation/,
    );
    const resumes = await session('none', async (url) => {
      await call2026(url, 1, { closeAfterMs: 200 });
      await call2026(url, 1, { lastEventId: 'e-3', closeAfterMs: 200 });
    });
    expect(resumes.verdict['client-resumes-only-where-supported']?.summary).toMatch(
      /^POST 2 sent Last-Event-ID e-3, but 2026-07-28 has no resumption/,
    );
    expect(resumes.verdict['client-request-ids-unique']?.status).toBe('fail');
    // The way 2026-07-28 recovers a stream the server broke: the lost call sent again under a new id, no Last-Event-ID.
    const reissues = await session('drop-stream', async (url) => {
      await call2026(url, 1);
      await call2026(url, 2);
    });
    expect(reissues.read.transcript.streams?.find((stream) => stream.id === 'POST 1')?.closed?.by).toBe('server');
    expect(
      reissues.verdict['client-resumes-only-where-supported']?.status,
      JSON.stringify(reissues.verdict['client-resumes-only-where-supported']),
    ).toBe('pass');
  });
});
