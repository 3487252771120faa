import { compileField } from '../target.js';
import type { GenericFunction } from './generic-function.js';

type Operator = '<' | '<=' | '>' | '>=' | '==' | '!=';

const HOLDS: Record<Operator, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

/** Compares a number with a constant or with another field; passes when either side is missing. */
export const compare: GenericFunction = {
  name: 'compare',
  compile(options) {
    const operator = options['operator'] as Operator;
    const holds = HOLDS[operator];
    const other = typeof options['field'] === 'string' ? compileField(options['field']) : undefined;
    const constant = options['value'];
    return (value, target) => {
      const against = other === undefined ? constant : other.read(target);
      if (typeof value !== 'number' || typeof against !== 'number') return undefined;
      if (holds(value, against)) return undefined;
      return { expected: `${operator} ${other === undefined ? String(against) : `${other.text} (${against})`}`, other: against };
    };
  },
};
