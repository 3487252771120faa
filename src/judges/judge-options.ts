import type { SessionRequest } from './session-requests.js';

/** What a manifest claims for the operation a request belongs to: its host's timeouts, its key argument. */
export interface RequestClaims {
  readonly idleTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  readonly idempotencyKeyField?: string;
}

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
  /** Per request, what a manifest claims for its operation; each claim it makes wins over the option above. */
  readonly claimsFor?: (request: SessionRequest) => RequestClaims | undefined;
}

/** A request's idle and maximum timeouts: its operation's in the manifest, else the options'. */
export function timeoutsOf(options: JudgeOptions, request: SessionRequest): { readonly idleMs?: number; readonly maxMs?: number } {
  const claimed = options.claimsFor?.(request);
  const idleMs = claimed?.idleTimeoutMs ?? options.idleTimeoutMs;
  const maxMs = claimed?.maxTimeoutMs ?? options.maxTimeoutMs;
  return { ...(idleMs === undefined ? {} : { idleMs }), ...(maxMs === undefined ? {} : { maxMs }) };
}

export const DEFAULT_TOLERANCE_MS = 1000;
export const DEFAULT_GRACE_MS = 250;
