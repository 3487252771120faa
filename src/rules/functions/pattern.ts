import type { GenericFunction } from './generic-function.js';

/** A text field matches `match` and does not match `notMatch`; other values (and a missing field) pass. */
export const pattern: GenericFunction = {
  name: 'pattern',
  compile(options) {
    const match = typeof options['match'] === 'string' ? new RegExp(options['match']) : undefined;
    const notMatch = typeof options['notMatch'] === 'string' ? new RegExp(options['notMatch']) : undefined;
    return (value) => {
      if (typeof value !== 'string') return undefined;
      if (match !== undefined && !match.test(value)) return { expected: `text matching ${match.source}` };
      if (notMatch?.test(value)) return { expected: `text not matching ${notMatch.source}` };
      return undefined;
    };
  },
};
