import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/text/plural.js';
import { wordLines } from '../../src/text/word-lines.js';

describe('plural', () => {
  it.each([
    [0, 'operation', undefined, '0 operations'],
    [1, 'operation', undefined, '1 operation'],
    [2, 'operation', undefined, '2 operations'],
    [1, 'fixture', undefined, '1 fixture'],
    [39, 'fixture', undefined, '39 fixtures'],
    [1, 'drift finding', undefined, '1 drift finding'],
    [3, 'drift finding', undefined, '3 drift findings'],
    [1, 'property', 'properties', '1 property'],
    [2, 'property', 'properties', '2 properties'],
    [0, 'more manifest', 'more manifests', '0 more manifests'],
  ])('%i %s → %s', (count, noun, nouns, expected) => {
    expect(plural(count, noun, nouns)).toBe(expected);
  });
});

describe('wordLines', () => {
  const words = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '-', '1'), minLength: 1, maxLength: 12 }), { maxLength: 20 });

  it('keeps every word whole and in order, each line within the width unless it is one longer word', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 1, max: 40 }), (list, width) => {
        const lines = wordLines(list.join(' '), width);
        expect(lines.join(' ').split(' ').filter(Boolean)).toEqual(list);
        for (const line of lines) if (line.includes(' ')) expect(line.length).toBeLessThanOrEqual(width);
      }),
      { numRuns: 1000 },
    );
  });

  it('with a bound on lines, ends at a word with an ellipsis and loses no word before it', () => {
    fc.assert(
      fc.property(words, fc.integer({ min: 4, max: 40 }), fc.integer({ min: 1, max: 4 }), (list, width, maxLines) => {
        const lines = wordLines(list.join(' '), width, maxLines);
        expect(lines.length).toBeLessThanOrEqual(maxLines);
        const shown = lines.join(' ').split(' ').filter(Boolean);
        if (!lines.at(-1)!.endsWith('…')) {
          expect(shown).toEqual(list);
          return;
        }
        // Every word shown is a whole word of the text, the last one with the ellipsis after it.
        shown[shown.length - 1] = shown.at(-1)!.slice(0, -1);
        expect(shown).toEqual(list.slice(0, shown.length));
        expect(shown.length).toBeLessThan(list.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('wraps the note that was cut at 90 characters, and treats a no-break space as part of a word', () => {
    const note = 'closes a connection idle for 60000 ms, the server sends a keep-alive comment every 15000 ms on a quiet stream';
    expect(wordLines(note, 36)).toEqual([
      'closes a connection idle for 60000',
      'ms, the server sends a keep-alive',
      'comment every 15000 ms on a quiet',
      'stream',
    ]);
    expect(wordLines('idle for 60000\u00a0ms', 14)).toEqual(['idle for', '60000\u00a0ms']);
    expect(wordLines('  two\n words  ', 40)).toEqual(['two words']);
    expect(wordLines('', 10)).toEqual(['']);
    expect(wordLines('one two three four five six', 9, 2)).toEqual(['one two', 'three…']);
  });
});
