import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RecordSpool } from '../../src/bundle-writer/record-spool.js';

describe('a spool keeps records in a temporary file and gives each back by position', () => {
  it('reads back what was pushed, in any order, byte for byte (unicode, nesting, empty records)', () => {
    const spool = RecordSpool.open() as RecordSpool<unknown>;
    const records = [{ a: 'x', list: [1, 2, { b: null }] }, [], 'näïve ✓ 𝌆 \u202e', { big: 'y'.repeat(200_000) }, 0, {}];
    try {
      for (const record of records) spool.push(record);
      expect(spool.length).toBe(records.length);
      for (const position of [3, 0, 5, 2, 2, 1, 4]) expect(spool.at(position)).toEqual(records[position]);
      expect([...spool]).toEqual(records);
    } finally {
      spool.close();
    }
  });

  it('drops undefined members as JSON does, and refuses a position it does not hold', () => {
    const spool = RecordSpool.open() as RecordSpool<{ a?: number; b: number }>;
    try {
      spool.push({ a: undefined, b: 1 });
      expect(spool.at(0)).toStrictEqual({ b: 1 });
      expect(() => spool.at(1)).toThrow(/no record at 1 of 1/);
    } finally {
      spool.close();
    }
  });

  it('removes its file on close, and a second close does nothing', () => {
    const spool = RecordSpool.open() as RecordSpool<number>;
    spool.push(1);
    expect(existsSync(spool.folder)).toBe(true);
    spool.close();
    expect(existsSync(spool.folder)).toBe(false);
    spool.close();
    expect(() => spool.push(2)).toThrow();
  });
});
