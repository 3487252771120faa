import type { GenericFunction } from './generic-function.js';

/** The field is absent or falsy. */
export const falsy: GenericFunction = {
  name: 'falsy',
  compile: () => (value) => (value ? { expected: 'false' } : undefined),
};
