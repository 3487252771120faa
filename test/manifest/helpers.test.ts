import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Byte } from '../../src/document/decode.js';
import { closestMatch, editDistance } from '../../src/document/did-you-mean.js';
import { displayPath } from '../../src/document/describe-schema-error.js';

describe('did you mean', () => {
  it.each([
    ['timeout', 'timeouts'],
    ['sideEfect', 'sideEffect'],
    ['maxMS', 'maxMs'],
    ['idelMs', 'idleMs'],
    ['zzz', undefined],
    ['name', undefined],
  ])('%s → %s', (word, expected) => {
    expect(closestMatch(word, ['timeouts', 'sideEffect', 'maxMs', 'idleMs', 'method', 'retry'])).toBe(expected);
  });

  it('counts a transposition as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('UTF-8 validation', () => {
  it.each([
    ['ascii', [0x61, 0x62], 2],
    ['two-byte é', [0xc3, 0xa9], 2],
    ['lone continuation', [0x61, 0x80], 1],
    ['overlong NUL', [0xc0, 0x80], 0],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80], 0],
    ['truncated', [0x61, 0xe2, 0x82], 1],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['four-byte emoji', [0xf0, 0x9f, 0x98, 0x80], 4],
  ])('%s', (_, bytes, expected) => {
    expect(firstInvalidUtf8Byte(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('display paths', () => {
  it('reads like the manifest', () => {
    expect(displayPath([])).toBe('the manifest');
    expect(displayPath(['operations', '2', 'timeouts', 'maxMs'])).toBe('operations[2].timeouts.maxMs');
    expect(displayPath(['server', 'http', 'sseHeaders', 'X Accel'])).toBe('server.http.sseHeaders["X Accel"]');
  });
});
