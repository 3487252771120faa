import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha1Hex } from '../../src/text/sha1.js';

const nodeSha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('sha1Hex', () => {
  it('gives node:crypto’s digest at every length around the block edges (55, 56, 63, 64 bytes …)', () => {
    for (let length = 0; length <= 200; length++) expect(sha1Hex('a'.repeat(length)), String(length)).toBe(nodeSha1('a'.repeat(length)));
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });

  it('gives node:crypto’s digest for any text, UTF-8 encoded (accents, emoji, lone surrogates)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (text) => {
        expect(sha1Hex(text)).toBe(nodeSha1(text));
      }),
      { numRuns: 300 },
    );
  });
});
