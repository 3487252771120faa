import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../../src/probe-client/stdio-server.js';
import { tellAsDecided } from '../../src/probe-client/tell-as-decided.js';

describe('probe-client: the outcomes told as they are decided', () => {
  it('judging takes at most about 5% of the time: a pass of 20 ms waits some 400 ms before the next, not its 20 ms interval', async () => {
    let passes = 0;
    // The sessions as a slow read: what judging 64 sessions of 10⁴ messages each costs, in small.
    const sessions = () => {
      passes++;
      const until = performance.now() + 20;
      while (performance.now() < until);
      return [];
    };
    const stop = tellAsDecided(sessions, { toleranceMs: 100, graceMs: 100 }, new PassThrough(), 20);
    await new Promise((resolve) => setTimeout(resolve, 600));
    stop();
    // Every 20 ms, it would have judged about 15 times (and the scenario server, on the same thread, served half the time).
    expect(passes).toBeGreaterThanOrEqual(1);
    expect(passes).toBeLessThanOrEqual(3);
  });

  it('judging that throws stops the telling, said once, and never ends the run', async () => {
    const to = new PassThrough();
    let said = '';
    to.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    let passes = 0;
    const stop = tellAsDecided(
      () => {
        passes++;
        throw new RangeError('a judge that did not foresee this session');
      },
      { toleranceMs: 100, graceMs: 100 },
      to,
      10,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(passes).toBe(1);
    expect(said).toMatch(/^mcprely probe-client: telling outcomes as they are decided stopped \(RangeError: a judge that did not foresee/);
  });

  it('a scenario decided while the session runs is told once, in one line: PASS or FAIL, the scenario, its summary', async () => {
    const input = new PassThrough();
    const served = serveStdio(input, new PassThrough(), { idleMs: 300, maxMs: 1200, holdMs: 5000 });
    const to = new PassThrough();
    let said = '';
    to.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    const stop = tellAsDecided(() => [served.session], { idleTimeoutMs: 300, maxTimeoutMs: 1200, toleranceMs: 300, graceMs: 100 }, to, 20);
    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'never_answers', arguments: {} } });
    // Past the idle timeout and its tolerance with no cancellation: the scenario fails, and stays failed.
    await new Promise((resolve) => setTimeout(resolve, 900));
    stop();
    input.end();
    await served.ended;
    expect(said.split('\n')).toEqual([
      expect.stringMatching(/^mcprely probe-client: FAIL never_answers: .*passed its idle timeout \(300 ms\) without a cancellation/),
      '',
    ]);
  });
});
