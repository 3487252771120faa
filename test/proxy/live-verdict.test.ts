import { describe, expect, it } from 'vitest';
import { LiveVerdict } from '../../src/proxy/live-verdict.js';

describe('the proxy judging as it goes', () => {
  it('judging that throws stops live judging, said once: on its timer the throw would have ended the proxy and its sessions', async () => {
    let passes = 0;
    const failures: unknown[] = [];
    const live = new LiveVerdict(
      () => {
        passes++;
        throw new RangeError('a judge that did not foresee this session');
      },
      { toleranceMs: 100, graceMs: 100 },
      () => undefined,
      10,
      (error) => failures.push(error),
    );
    live.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    live.stop();
    expect(passes).toBe(1);
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/did not foresee/);
  });
});
