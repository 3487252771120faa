import { fact } from '../spec/revision-facts.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Condition, FactCondition, FieldCondition } from './rule-types.js';
import { compileField, type RuleTarget } from './target.js';

export type CompiledCondition = (target: RuleTarget) => boolean;

/** A list of conditions holds when all of them hold; an absent list always holds. */
export function compileConditions(conditions: readonly Condition[] | undefined): CompiledCondition {
  if (conditions === undefined || conditions.length === 0) return () => true;
  const compiled = conditions.map(compileCondition);
  if (compiled.length === 1) return compiled[0]!;
  // Run for every rule on every operation: a loop, not a closure made per call.
  return (target) => {
    for (const condition of compiled) if (!condition(target)) return false;
    return true;
  };
}

/**
 * Whether the conditions can hold on a revision: fact conditions are decided by the revision alone, field
 * conditions depend on the manifest and may hold. A rule whose conditions cannot hold on a revision does not
 * apply to it (that is how a rule's revisions are derived from the facts it names).
 */
export function canHoldOn(conditions: readonly Condition[] | undefined, revision: SpecVersion): boolean {
  return (conditions ?? []).every((condition) => possible(condition, revision));
}

function possible(condition: Condition, revision: SpecVersion): boolean {
  if ('all' in condition) return condition.all.every((inner) => possible(inner, revision));
  if ('any' in condition) return condition.any.some((inner) => possible(inner, revision));
  if ('not' in condition) return isFactCondition(condition.not) ? !factHolds(condition.not, revision) : true;
  if (isFactCondition(condition)) return factHolds(condition, revision);
  return true;
}

function isFactCondition(condition: Condition): condition is FactCondition {
  return 'fact' in condition;
}

function factHolds(condition: FactCondition, revision: SpecVersion): boolean {
  return compileTest(condition)(fact(revision, condition.fact).value);
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
  if (isFactCondition(condition)) {
    const test = compileTest(condition);
    return (target) => test(fact(target.manifest.manifest.specVersion, condition.fact).value);
  }
  const field = compileField(condition.field);
  const test = compileTest(condition);
  return (target) => test(field.read(target));
}

function compileTest(condition: FieldCondition | FactCondition): (value: unknown) => boolean {
  if ('equals' in condition) return (value) => value === condition.equals;
  if ('notEquals' in condition) return (value) => value !== condition.notEquals;
  if (condition.in !== undefined) {
    const set = new Set(condition.in);
    return (value) => set.has(value);
  }
  if (!('field' in condition)) throw new Error(`condition on the fact ${condition.fact} has no test`);
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
