import { relative, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relativeResolved } from '../../src/workspace/relative-path.js';

const segment = fc.constantFrom('a', 'b', 'ab', 'a.b', '..', '.', 'c d', 'é');

describe('relativeResolved', () => {
  it('gives what path.relative gives for any two resolved paths: under, equal, beside, a prefix of a name, above', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.array(segment, { maxLength: 5 }), (baseParts, pathParts) => {
        const base = resolve('/', ...baseParts);
        const path = resolve('/', ...pathParts);
        expect(relativeResolved(base, path)).toBe(relative(base, path));
      }),
      { numRuns: 500 },
    );
    // A name that starts with the base's last name is not under it.
    expect(relativeResolved(resolve('/work/app'), resolve('/work/app2/x.yaml'))).toBe(relative('/work/app', '/work/app2/x.yaml'));
    expect(relativeResolved(resolve('/work/app'), resolve('/work/app/x.yaml'))).toBe('x.yaml');
    expect(relativeResolved(resolve('/'), resolve('/x.yaml'))).toBe('x.yaml');
    expect(relativeResolved(resolve('/work'), resolve('/work'))).toBe('');
  });
});
