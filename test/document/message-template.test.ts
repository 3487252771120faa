import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../src/document/message-template.js';

/** The definition: every `{name}` replaced by its value, an unknown one (or one only inherited, like toString) left as written. */
const byRegex = (template: string, data: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(data, name) ? String(data[name]) : whole));

describe('formatMessage', () => {
  it('fills known placeholders and leaves unknown ones visible', () => {
    expect(formatMessage('{operation} has no {field}; {missing} stays', { operation: 'charge', field: 'maxMs' })).toBe(
      'charge has no maxMs; {missing} stays',
    );
    expect(formatMessage('{a}{a}{', { a: 1 })).toBe('11{');
    expect(formatMessage('{toString}', {})).toBe('{toString}');
    expect(formatMessage('', {})).toBe('');
  });

  it('says what a regular-expression replacement says, for any template and data (the same template twice)', () => {
    const piece = fc.oneof(fc.constantFrom('{', '}', '{a}', '{b_1}', '{toString}', '{ a }', '{}', '$&', '$1'), fc.string({ maxLength: 6 }));
    const data = fc.dictionary(fc.constantFrom('a', 'b_1', 'c', 'toString'), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), data, (pieces, values) => {
        const template = pieces.join('');
        expect(formatMessage(template, values)).toBe(byRegex(template, values));
        expect(formatMessage(template, values)).toBe(byRegex(template, values));
      }),
      { numRuns: 2000 },
    );
  });
});
