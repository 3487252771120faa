import { InvalidArgumentError } from './errors.js';

/** JSON-RPC ids and progress tokens: a string or an integer; never a boolean, float, null, array or object. */
export type RequestId = string | number;

export function requireRequestId(argument: string, value: unknown): RequestId {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new InvalidArgumentError(argument, `must be a string or an integer, not ${describe(value)}`);
}

/** A time on the logical clock or a duration: a finite number of milliseconds, not negative. */
export function requireTime(argument: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError(argument, `must be a finite number of milliseconds of 0 or more, not ${describe(value)}`);
  return value;
}

export function requirePositiveTime(argument: string, value: unknown): number {
  requireTime(argument, value);
  if ((value as number) <= 0) throw new InvalidArgumentError(argument, `must be greater than 0, not ${describe(value)}`);
  return value as number;
}

export function requireInteger(argument: string, value: unknown, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum)
    throw new InvalidArgumentError(argument, `must be an integer of ${minimum} or more, not ${describe(value)}`);
  return value;
}

export function requireNonEmptyString(argument: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new InvalidArgumentError(argument, `must be a non-empty string, not ${describe(value)}`);
  return value;
}

export function requireOneOf<T extends string>(argument: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw new InvalidArgumentError(argument, `must be one of ${allowed.join(', ')}, not ${describe(value)}`);
  return value as T;
}

/** Plain JSON data: null, booleans, finite numbers, strings, arrays and plain objects, without cycles. */
export function requireJson(argument: string, value: unknown): void {
  const problem = jsonProblem(value, new Set());
  if (problem !== undefined) throw new InvalidArgumentError(argument, `must be JSON-serialisable: ${problem}`);
}

function jsonProblem(value: unknown, ancestors: Set<object>, path = ''): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path || 'the value'} is ${value}`;
  if (typeof value !== 'object') return `${path || 'the value'} is a ${typeof value}`;
  if (ancestors.has(value)) return `${path || 'the value'} contains itself`;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null)
    return `${path || 'the value'} is a ${prototype?.constructor?.name ?? 'non-plain object'}`;
  ancestors.add(value);
  for (const [key, child] of Object.entries(value)) {
    const problem = jsonProblem(child, ancestors, Array.isArray(value) ? `${path}[${key}]` : `${path}${path ? '.' : ''}${key}`);
    if (problem !== undefined) return problem;
  }
  ancestors.delete(value);
  return undefined;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${String(value)}`;
}
