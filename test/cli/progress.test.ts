import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/cli/progress.js';

/** A terminal stand-in: what was written, and a clock the test moves. */
function terminal(isTTY: boolean, columns = 60) {
  const written: string[] = [];
  let now = 0;
  return {
    written,
    stream: { isTTY, columns, write: (text: string) => written.push(text) > 0 },
    clock: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the progress line', () => {
  it('on a terminal: the count, what runs now and the time so far, on one line redrawn in place, then cleared', () => {
    const t = terminal(true);
    const progress = new Progress(t.stream, 3, {}, t.clock);
    t.advance(1500);
    progress.update(0, 'refund');
    expect(t.written).toEqual([`\r${'[1/3] refund · 1.5 s'.padEnd(59)}`]);
    progress.done();
    expect(t.written.at(-1)).toBe(`\r${' '.repeat(59)}\r`);
  });

  it('a terminal that reports 0 columns is taken as 80 wide (no throw at the draw or the clearing)', () => {
    const t = terminal(true, 0);
    const progress = new Progress(t.stream, 2, {}, t.clock);
    progress.update(0, 'refund');
    progress.done();
    expect(t.written).toEqual([`\r${'[1/2] refund · 0.0 s'.padEnd(79)}`, `\r${' '.repeat(79)}\r`]);
  });

  it('redraws at most every 100 ms, and always for the last', () => {
    const t = terminal(true);
    const progress = new Progress(t.stream, 1000, {}, t.clock);
    for (let index = 0; index < 999; index++) {
      progress.update(index, `op${index}`);
      t.advance(1);
    }
    expect(t.written.length).toBe(10);
    progress.update(999, 'last');
    expect(t.written.at(-1)).toContain('[1000/1000] last');
  });

  it('a long or hostile label gives way to the count and the time, and its control characters are shown escaped', () => {
    const t = terminal(true, 40);
    new Progress(t.stream, 2, {}, t.clock).update(0, `a\u001b[2J${'x'.repeat(100)}`);
    const line = t.written[0]!;
    expect(line.length).toBe(1 + 39);
    expect(line).toMatch(/^\r\[1\/2\] a.*… · 0\.0 s$/);
    expect([...line.slice(1)].some((character) => character.charCodeAt(0) < 0x20)).toBe(false);
  });

  it('writes nothing when not a terminal, under CI, or for a single item', () => {
    for (const [isTTY, env, total] of [
      [false, {}, 5],
      [true, { CI: 'true' }, 5],
      [true, { CI: '1' }, 5],
      [true, {}, 1],
    ] as const) {
      const t = terminal(isTTY);
      const progress = new Progress(t.stream, total, env, t.clock);
      progress.update(0, 'x');
      progress.done();
      expect(t.written, JSON.stringify({ isTTY, env, total })).toEqual([]);
    }
    const t = terminal(true);
    new Progress(t.stream, 5, { CI: 'false' }, t.clock).update(0, 'x');
    expect(t.written).toHaveLength(1);
  });
});
