import type { GenericFunction } from './generic-function.js';

/** The field is present. */
export const defined: GenericFunction = {
  name: 'defined',
  compile: () => (value) => (value === undefined ? { expected: 'a value' } : undefined),
};
