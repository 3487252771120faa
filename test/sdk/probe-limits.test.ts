import { describe, expect, it } from 'vitest';
import { check, failing, probe, statuses } from '../probe/probe-harness.js';

/**
 * The probe's limits are the probe's: a client maximum shorter than the tool plays the maximum timeout (never
 * "the server stalls"); a budget that runs out is inconclusive, never a failure; a correct server whose tool runs
 * 60 s completes every check within 3 minutes, and one that runs 90 s is inconclusive, not failed. Slow (tools of
 * 6 to 90 s): run by npm run test:sdk.
 */
const SERVER = 'test/probe/servers/sdk/v1.mjs';
const slowJob = (steps: number, stepMs: number) => ['--operation', 'slow_job', '--arguments', JSON.stringify({ steps, stepMs })];

describe.concurrent('the probe keeps its own limits apart from the server', () => {
  it('--max-timeout 3000 on a tool that reports every second for 6 s: the maximum is played, progress passes', {
    timeout: 120_000,
  }, async () => {
    const { report, status } = await probe(['--stdio', `node ${SERVER} correct stdio`, ...slowJob(6, 1000), '--max-timeout', '3000']);
    expect(failing(report)).toEqual({});
    expect(check(report, 'progress').status).toBe('pass');
    expect(check(report, 'client-timeouts').summary).toMatch(/^the maximum timeout fired 30\d\d ms after the request/);
    expect(check(report, 'client-timeouts').observed).toMatchObject({ fired: 'maximum' });
    expect(status).toBe(0);
  });

  it('a budget that runs out (--max-time 12000, a 20 s tool) is inconclusive, never a failure', { timeout: 120_000 }, async () => {
    const { report, status } = await probe(['--stdio', `node ${SERVER} correct stdio`, ...slowJob(40, 500), '--max-time', '12000']);
    expect(failing(report)).toEqual({});
    expect(check(report, 'progress').status).toBe('inconclusive');
    expect(check(report, 'progress').summary).toMatch(/the probe's limit for one run .*raise --max-time/);
    // Each one the probe's limits stopped names the option that changes it (the server has no task tool: nothing to change).
    for (const entry of report.checks.filter((candidate) => candidate.status === 'inconclusive' && candidate.id !== 'tasks'))
      expect(entry.summary, entry.id).toMatch(/--max-time|--allow-mutations|--arguments|--max-timeout|--operation/);
    expect([0, 3]).toContain(status);
  });

  it('a correct server whose tool runs 60 s: every check completes within 3 minutes (the default budget)', {
    timeout: 240_000,
  }, async () => {
    const started = Date.now();
    const { report, status } = await probe(['--stdio', `node ${SERVER} correct stdio`, ...slowJob(60, 1000)], 230_000);
    expect(Date.now() - started).toBeLessThan(180_000);
    expect(statuses(report)).toMatchObject({
      progress: 'pass',
      'cancel-before-completion': 'pass',
      'client-timeouts': 'pass',
      'ignored-cancellations': 'pass',
      wire: 'pass',
    });
    expect(status).toBe(0);
  });

  it('a correct server whose tool runs 90 s: inconclusive where the probe could not wait, never failed', { timeout: 240_000 }, async () => {
    const started = Date.now();
    const { report, status } = await probe(['--stdio', `node ${SERVER} correct stdio`, ...slowJob(90, 1000)], 230_000);
    expect(Date.now() - started).toBeLessThan(190_000);
    expect(failing(report)).toEqual({});
    expect(check(report, 'progress').status).toBe('inconclusive');
    expect(status).toBe(0);
  });
});
