import { describeValue, type GenericFunction } from './generic-function.js';

/** The field is one of `values`; a missing field fails unless `allowMissing`. */
export const enumeration: GenericFunction = {
  name: 'enum',
  compile(options) {
    const values = options['values'] as readonly unknown[];
    const allowMissing = options['allowMissing'] === true;
    const expected = values.map(describeValue).join(' or ');
    return (value) => {
      if (value === undefined) return allowMissing ? undefined : { expected };
      return values.includes(value) ? undefined : { expected };
    };
  },
};
