import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGlob, expandBraces, GlobError, globMatcher } from '../../src/config/glob.js';

/** A plain regular expression for the same glob: the reference the matcher must agree with (fine on short inputs). */
function reference(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index]!;
    if (pattern.startsWith('**/', index)) {
      source += '(?:[^/]*/)*';
      index += 2;
    } else if (pattern.startsWith('/**', index) && index + 3 === pattern.length) {
      source += '(?:/.*)?';
      index += 2;
    } else if (pattern.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

describe('glob matching for configuration overrides', () => {
  it.each([
    ['legacy/**/*.yaml', 'legacy/a.yaml', true],
    ['legacy/**/*.yaml', 'legacy/x/y/a.yaml', true],
    ['legacy/**/*.yaml', 'other/a.yaml', false],
    ['**/*.yaml', 'a.yaml', true],
    ['**/*.yaml', '.hidden/a.yaml', true],
    ['*.{yaml,yml}', 'a.yml', true],
    ['*.{yaml,yml}', 'a.json', false],
    ['services/{billing,payments/{eu,us}}/*.yaml', 'services/payments/eu/x.yaml', true],
    ['file[0-9].yaml', 'file7.yaml', true],
    ['file[!0-9].yaml', 'file7.yaml', false],
    ['a?c.yaml', 'abc.yaml', true],
    ['a?c.yaml', 'a/c.yaml', false],
    ['literal\\*.yaml', '*.yaml', false],
    ['literal\\*.yaml', 'literal*.yaml', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(globMatcher([pattern])(path)).toBe(expected);
  });

  it('agrees with a plain regular expression on random patterns and paths (fast-check)', () => {
    const part = fc.constantFrom('a', 'b', '.', '*', '?', '**', '/');
    const name = fc.constantFrom('a', 'b', 'ab', '.a', 'a.b', '');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 8 }), fc.array(name, { minLength: 1, maxLength: 4 }), (parts, names) => {
        const pattern = parts
          .join('')
          .replace(/\*{3,}/g, '**')
          .replace(/\/{2,}/g, '/');
        // The reference regex is only exact for ** as a whole path segment; skip the rest.
        fc.pre(!/[^/]\*\*|\*\*[^/]/.test(pattern) && !pattern.includes('**/**'));
        const path = names.join('/');
        expect(globMatcher([pattern])(path)).toBe(reference(pattern).test(path));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes time linear in pattern and path: a backtracking pattern against a long name ends at once', () => {
    const pattern = `${'*a'.repeat(24)}*c`;
    const name = 'a'.repeat(40);
    const started = performance.now();
    expect(globMatcher([pattern])(name)).toBe(false);
    expect(globMatcher([`**/${pattern}`])(`x/y/${name}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('refuses braces that stand for too many patterns, and a pattern too long', () => {
    expect(() => expandBraces('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}')).toThrow(GlobError);
    expect(() => expandBraces('x'.repeat(2000))).toThrow(GlobError);
    expect(expandBraces('{a,b}{c,d}').sort()).toEqual(['ac', 'ad', 'bc', 'bd']);
  });

  it.each([
    ['[', /the set opened by "\[" at character 1 is never closed; write \\\[ for a literal \[/],
    ['src/[ab/*.yaml', /the set opened by "\[" at character 5 is never closed/],
    ['[]', /at character 1 is never closed/],
    ['*.{yaml,yml', /the "\{" at character 3 is never closed/],
    ['file[z-a].yaml', /the range z-a at character 6 is backwards; write a-z/],
    ['trailing\\', /ends in a lone \\/],
  ])('refuses %s, saying where and what to write', (pattern, message) => {
    expect(() => checkGlob(pattern)).toThrow(GlobError);
    expect(() => checkGlob(pattern)).toThrow(message);
    expect(() => globMatcher([pattern])).toThrow(GlobError);
  });

  it.each(['\\[', 'a[]]b', '[{]x', 'a}b', '**/*.{yaml,yml}', 'file[!0-9].yaml', '[a-a]'])('takes %s', (pattern) => {
    expect(() => checkGlob(pattern)).not.toThrow();
  });
});
