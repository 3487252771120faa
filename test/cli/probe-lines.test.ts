import { describe, expect, it } from 'vitest';
import type { ProbeEvent } from '../../src/api/on-progress.js';
import { probeEventLine, probeReporter } from '../../src/cli/probe-lines.js';
import { STALL } from '../probe/checks/silence-rows.js';

const started: ProbeEvent = {
  kind: 'check-started',
  index: 0,
  total: 2,
  check: 'progress',
  title: 'progress strictly increases',
  limit: { tool: 'slow_op', ms: 65_000, waitsFor: 'its response' },
};
const ended: ProbeEvent = {
  kind: 'check-ended',
  index: 0,
  total: 2,
  check: 'progress',
  status: 'fail',
  summary: 'slow_op never answered',
  durationMs: 65_012,
};
const stalled: ProbeEvent = { kind: 'stalled', check: 'progress', stall: { ...STALL, tool: 'slow_op' } };
const last: ProbeEvent[] = [
  { kind: 'check-started', index: 1, total: 2, check: 'tasks', title: 'tasks' },
  { kind: 'check-ended', index: 1, total: 2, check: 'tasks', status: 'inconclusive', summary: 'no tool to run as a task', durationMs: 3 },
];

describe('the lines the probe writes on stderr as it runs', () => {
  it('a check as it starts, with its limit on a tool; the stall the moment the limit passes; the check as it ends', () => {
    expect([started, stalled, ended, ...last].map(probeEventLine)).toEqual([
      'probe [1/2] progress: started, waiting up to 65 s for slow_op (its response)',
      'probe progress: slow_op has not answered within 65 s: no progress, no message at all; ' +
        'the probe cancelled it, and the later checks will not wait for it again',
      'probe [1/2] progress: failed after 65 s: slow_op never answered',
      'probe [2/2] tasks: started',
      'probe [2/2] tasks: inconclusive after 3 ms: no tool to run as a task',
    ]);
  });

  it('what the server sent cannot break out of its line or colour the screen', () => {
    const written: string[] = [];
    probeReporter(false, (text) => written.push(text)).onProbeEvent?.({ ...ended, summary: 'x\n\u001b[2Jfake line' } as ProbeEvent);
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith('\n')).toBe(true);
    expect(written[0]!.slice(0, -1)).not.toContain('\n');
    expect(written[0]).not.toContain('\u001b');
  });

  it('written whether or not stderr is a terminal; the counter gives way to them while the checks run', () => {
    const written: string[] = [];
    const counted: string[] = [];
    const counter = { onProgress: (_index: number, _total: number, label: string) => counted.push(label), done: () => {} };
    const reporter = probeReporter(false, (text) => written.push(text), counter);
    for (const event of [started, ended]) {
      reporter.onProbeEvent?.(event);
      reporter.onProgress(0, 2, 'progress');
    }
    for (const event of last) reporter.onProbeEvent?.(event);
    // After the last check ended, the next stage (an evidence bundle's operations) has its counter again.
    reporter.onProgress(0, 3, 'refund');
    expect(written).toHaveLength(4);
    expect(counted).toEqual(['refund']);
  });

  it('--quiet: no line at all, and the terminal counter as before', () => {
    const written: string[] = [];
    const counted: string[] = [];
    const counter = { onProgress: (_index: number, _total: number, label: string) => counted.push(label), done: () => {} };
    const reporter = probeReporter(true, (text) => written.push(text), counter);
    expect(reporter.onProbeEvent).toBeUndefined();
    reporter.onProgress(0, 2, 'progress');
    expect(written).toEqual([]);
    expect(counted).toEqual(['progress']);
  });
});
