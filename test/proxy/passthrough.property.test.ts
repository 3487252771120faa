import { describe, expect, it } from 'vitest';
import { LineTap, MAX_RECORDED_LINE } from '../../src/proxy/line-tap.js';
import { lineTapSeeds, stdioPassthroughSeeds } from './passthrough-suite.js';

// Two of LineTap's seeds and one of the stdio passthrough's; the other seeds in npm run test:live (passthrough-seeds.test.ts).
lineTapSeeds([1, 2]);
stdioPassthroughSeeds([11]);

describe('LineTap at its bound', () => {
  it('a line past the recording limit is cut once, and the next line is whole', () => {
    const seen: [string, boolean][] = [];
    const tap = new LineTap((text, cut) => seen.push([text.slice(0, 10), cut]));
    const long = 'x'.repeat(MAX_RECORDED_LINE + 10);
    tap.write(`${long.slice(0, 1000)}`);
    tap.write(`${long.slice(1000)}\nnext\r\nlast`);
    tap.end();
    expect(seen).toEqual([
      ['xxxxxxxxxx', true],
      ['next', false],
      ['last', false],
    ]);
  });
});
