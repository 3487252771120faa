import type { OperationSpec } from '../manifest/types.js';

/** The first poll strictly after `at`, for a client polling every `interval` ms from the task's creation (time 0). */
export function firstPollAfter(at: number, interval: number): number {
  return (Math.floor(at / interval) + 1) * interval;
}

/**
 * When the work of a task may end at the latest, counted from the task's creation: at the maximum timeout, after
 * which the client no longer waits for it. Undefined when the policy sets none.
 */
export function taskWorkEndsByMs(operation: OperationSpec): number | undefined {
  return operation.timeouts?.maxMs;
}

/**
 * When a client following the policy reads the result of work that ends as late as it may (taskWorkEndsByMs): at its
 * first poll after that, or then at once when it does not say how often it polls. Undefined without a maximum timeout.
 * A TTL (counted from creation too) must be longer, or that result is deleted before it is read.
 */
export function taskResultReadByMs(operation: OperationSpec): number | undefined {
  const endsBy = taskWorkEndsByMs(operation);
  return endsBy === undefined ? undefined : resultReadAt(endsBy, operation.task?.pollIntervalMs);
}

/** When a client polling every `interval` ms from creation reads work that ends at `endsAt`: its next poll, or then (no interval). */
export function resultReadAt(endsAt: number, interval: number | null | undefined): number {
  return interval === undefined || interval === null || interval <= 0 ? endsAt : firstPollAfter(endsAt, interval);
}
