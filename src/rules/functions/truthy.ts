import type { GenericFunction } from './generic-function.js';

/** The field is present and truthy (a missing field fails: the rule wants it stated). */
export const truthy: GenericFunction = {
  name: 'truthy',
  compile: () => (value) => (value ? undefined : { expected: 'true' }),
};
