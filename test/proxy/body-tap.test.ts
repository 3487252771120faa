import { describe, expect, it } from 'vitest';
import { BodyTap, TapBudget } from '../../src/proxy/body-tap.js';

describe('body taps sharing one budget', () => {
  it('hold at most the budget together: a body past what is left is recorded cut; an ended or abandoned body gives its room back', () => {
    const budget = new TapBudget(10);
    const first = new BodyTap(budget);
    const second = new BodyTap(budget);
    first.write(Buffer.from('{"a":1}!'));
    second.write(Buffer.from('{"b":2}'));
    expect(budget.available).toBe(0);
    expect(first.end()).toEqual({ text: '{"a":1}!', cut: false });
    expect(budget.available).toBe(8);
    // Nothing more is taken once cut, though room came back: the recording says the body was cut where it stood.
    second.write(Buffer.from('more'));
    expect(second.end()).toEqual({ text: '{"', cut: true });
    expect(budget.available).toBe(10);
    // A body whose exchange broke before its end (no end()) gives its room back when released, once.
    const broken = new BodyTap(budget);
    broken.write(Buffer.from('12345'));
    broken.release();
    broken.release();
    expect(budget.available).toBe(10);
  });

  it('a body alone is whole up to the recording bound', () => {
    const tap = new BodyTap(new TapBudget());
    for (let index = 0; index < 64; index++) tap.write(Buffer.alloc(1024, 'x'));
    expect(tap.end()).toEqual({ text: 'x'.repeat(64 * 1024), cut: false });
  });
});
