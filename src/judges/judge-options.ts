/** What the judges measure a session against. */
export interface JudgeOptions {
  /** The client's idle timeout (ms without an answer or progress), as the host or its manifest claims it. */
  readonly idleTimeoutMs?: number;
  /** The client's maximum timeout (ms from sending, whatever progress comes). */
  readonly maxTimeoutMs?: number;
  /** How late after a timeout a cancellation may still come and count as on time (ms). */
  readonly toleranceMs: number;
  /** How long after a cancellation what was in flight may still arrive (ms): both sides must handle the race. */
  readonly graceMs: number;
  /** The argument that carries a tool call's idempotency key (else names such as `idempotencyKey` are taken for it). */
  readonly idempotencyKeyField?: string;
}

export const DEFAULT_TOLERANCE_MS = 1000;
export const DEFAULT_GRACE_MS = 250;
