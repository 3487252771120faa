// The reference implementation: the model answer for reference-semantics.md and the engine mcprely's
// fixtures run on. Re-exports only.
export { BoundedSseBuffer, type FinalEvent, type ProgressEvent, type PushOutcome, type SseEvent } from './bounded-sse-buffer.js';
export { classifyRetry, type RetryClass, type RetryClassification } from './classify-retry.js';
export { DurableTaskService, type CancelAnswer, type TaskRecord } from './durable-task-service.js';
export {
  BufferFullError,
  IdempotencyKeyMismatchError,
  InvalidArgumentError,
  KeyInFlightError,
  LedgerError,
  ProtocolStateError,
  TaskError,
} from './errors.js';
export { fingerprint } from './fingerprint.js';
export type { JsonRpcNotification, JsonRpcResponse } from './json-rpc.js';
export type { SpecVersion } from '../spec/revisions.js';
export type { TaskStatus } from '../protocol/task-status.js';
export type { Transport } from '../protocol/transports.js';
export {
  chargeAccount,
  reserveInventory,
  type ChargeArguments,
  type ChargeResult,
  type LedgerOperation,
  type Reservation,
  type ReservationArguments,
} from './ledger-operations.js';
export { sqliteLedger, type IdempotencyLedger } from './idempotency-ledger.js';
export { MutationLedger, type Execution, type KeyOptions, type LedgerOptions, type LedgerRecord } from './mutation-ledger.js';
export { PostgresMutationLedger, type PostgresLedgerOptions } from './postgres-mutation-ledger.js';
export { backoffDelay, KEEP_ALIVE_COMMENT, reconnectPlan, sseHeaders, type BackoffWindow, type ReconnectPlan } from './recovery.js';
export {
  RequestCoordinator,
  type CancellationOutcome,
  type CancellationSignal,
  type CompletionOutcome,
  type RequestRecord,
  type RequestState,
  type StartOptions,
  type TimeoutSignal,
} from './request-coordinator.js';
export type { RequestId } from './validate-arguments.js';
