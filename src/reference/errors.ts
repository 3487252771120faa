/** An argument a reference function cannot accept; `argument` names it, for the caller and for tests. */
export class InvalidArgumentError extends TypeError {
  override readonly name = 'InvalidArgumentError';
  constructor(
    readonly argument: string,
    readonly reason: string,
  ) {
    super(`${argument} ${reason}`);
  }
}

/** A request the protocol state does not allow (a duplicate id, progress that does not increase, …). */
export class ProtocolStateError extends Error {
  override readonly name = 'ProtocolStateError';
}

/** The same idempotency key arrived with other arguments: rejected, nothing executed. */
export class IdempotencyKeyMismatchError extends Error {
  override readonly name = 'IdempotencyKeyMismatchError';
  /** The key and its scope (a tenant or grant; absent for a global key) as the caller gave them. */
  constructor(
    readonly key: string,
    readonly scope?: string,
  ) {
    super(`idempotency key ${keyAsGiven(key, scope)} was reused with different arguments`);
  }
}

/**
 * A key's execution is still running on another connection and the ledger was opened with
 * `whileInFlight: 'conflict'`: nothing ran; retry later (the retry replays once the first has committed).
 */
export class KeyInFlightError extends Error {
  override readonly name = 'KeyInFlightError';
  constructor(
    readonly key: string,
    readonly scope?: string,
  ) {
    super(`idempotency key ${keyAsGiven(key, scope)} may be in flight: another execution holds the ledger; nothing ran, retry later`);
  }
}

/** `"k1"`, or `"k1" (scope "t1")` for a scoped key: what the caller passed, never how a ledger stores it. */
function keyAsGiven(key: string, scope: string | undefined): string {
  return scope === undefined ? JSON.stringify(key) : `${JSON.stringify(key)} (scope ${JSON.stringify(scope)})`;
}

/** The ledger file cannot be used (not a SQLite database, locked past the busy timeout, …); nothing committed is lost. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** A buffer that holds only final responses cannot take another without dropping one: refused instead. */
export class BufferFullError extends Error {
  override readonly name = 'BufferFullError';
}

/** A tasks/* request the task's state refuses, with the JSON-RPC error code a server would answer. */
export class TaskError extends Error {
  override readonly name = 'TaskError';
  constructor(
    message: string,
    readonly jsonRpcCode: number,
  ) {
    super(message);
  }
}
