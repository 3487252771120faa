import { compare } from './compare.js';
import { defined } from './defined.js';
import { enumeration } from './enum.js';
import { falsy } from './falsy.js';
import type { GenericFunction } from './generic-function.js';
import { pattern } from './pattern.js';
import { schema } from './schema.js';
import { truthy } from './truthy.js';

/** The generic functions a declarative rule can assert with. */
export const GENERIC_FUNCTIONS: Readonly<Record<string, GenericFunction>> = {
  defined,
  truthy,
  falsy,
  enum: enumeration,
  pattern,
  compare,
  schema,
};
