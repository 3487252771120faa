import { compileField, type RuleTarget } from './target.js';
import type { Condition } from './rule-types.js';

export type CompiledCondition = (target: RuleTarget) => boolean;

/** A list of conditions holds when all of them hold; an absent list always holds. */
export function compileConditions(conditions: readonly Condition[] | undefined): CompiledCondition {
  if (conditions === undefined || conditions.length === 0) return () => true;
  const compiled = conditions.map(compileCondition);
  return (target) => compiled.every((condition) => condition(target));
}

function compileCondition(condition: Condition): CompiledCondition {
  if ('all' in condition) return compileConditions(condition.all);
  if ('any' in condition) {
    const options = condition.any.map(compileCondition);
    return (target) => options.some((option) => option(target));
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not);
    return (target) => !inner(target);
  }
  const field = compileField(condition.field);
  const test = compileTest(condition);
  return (target) => test(field.read(target));
}

function compileTest(condition: Exclude<Condition, { all: unknown } | { any: unknown } | { not: unknown }>): (value: unknown) => boolean {
  if ('equals' in condition) return (value) => value === condition.equals;
  if ('notEquals' in condition) return (value) => value !== condition.notEquals;
  if (condition.in !== undefined) {
    const set = new Set(condition.in);
    return (value) => set.has(value);
  }
  if (condition.notIn !== undefined) {
    const set = new Set(condition.notIn);
    return (value) => !set.has(value);
  }
  if ('contains' in condition) return (value) => Array.isArray(value) && value.includes(condition.contains);
  if (condition.defined !== undefined) return (value) => (value !== undefined) === condition.defined;
  if (condition.truthy !== undefined) return (value) => Boolean(value) === condition.truthy;
  if (condition.greaterThan !== undefined) return (value) => typeof value === 'number' && value > condition.greaterThan!;
  if (condition.lessThan !== undefined) return (value) => typeof value === 'number' && value < condition.lessThan!;
  throw new Error(`condition on ${condition.field} has no test`);
}
