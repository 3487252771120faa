import { InvalidArgumentError } from './errors.js';
import { requireOneOf } from './validate-arguments.js';

export type RetryClass = 'SAFE' | 'CONDITIONAL' | 'UNSAFE';

export interface RetryClassification {
  readonly classification: RetryClass;
  readonly reason: string;
}

/**
 * Whether a lost request may be re-sent, from the application's own contract: no side effect (or an
 * idempotent one) is SAFE with a new JSON-RPC id; a mutation with an idempotency key is CONDITIONAL (same key,
 * identical arguments); a mutation without one is UNSAFE (never automatically; reconcile first).
 * Tool annotations are untrusted hints and are deliberately not an input.
 */
export function classifyRetry(operation: {
  sideEffect: 'none' | 'idempotent' | 'mutation';
  idempotencyKeyArgument?: string;
}): RetryClassification {
  const sideEffect = requireOneOf('sideEffect', operation?.sideEffect, ['none', 'idempotent', 'mutation'] as const);
  const key = operation.idempotencyKeyArgument;
  if (key !== undefined && (typeof key !== 'string' || key.length === 0))
    throw new InvalidArgumentError('idempotencyKeyArgument', 'must be a non-empty string when given');
  if (sideEffect === 'none') return { classification: 'SAFE', reason: 'no side effect by contract: retry with a new JSON-RPC id' };
  if (sideEffect === 'idempotent')
    return { classification: 'SAFE', reason: 'idempotent by contract: repeating it changes nothing more; retry with a new JSON-RPC id' };
  if (key !== undefined)
    return {
      classification: 'CONDITIONAL',
      reason: `mutation with the idempotency key ${key}: retry only with the same key and identical arguments`,
    };
  return { classification: 'UNSAFE', reason: 'mutation without an idempotency key: never retry automatically; reconcile first' };
}
