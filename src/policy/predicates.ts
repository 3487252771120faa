import type { Backoff, OperationSpec, ServerSpec, SideEffect } from '../manifest/types.js';
import { classifyRetry, type RetryClassification } from '../reference/classify-retry.js';
import { factsOf } from '../spec/revision-facts.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';
import { METHODS } from '../protocol/methods.js';

/**
 * What an operation's policy means, once. Rules (through `$` fields), the review, its verdict, the fixture
 * generators, the simulator and the probe all ask these questions here, so no two of them can disagree about
 * what "streams", "a keyed mutation" or "a shared ledger" is. Every function takes the operation with its
 * defaults merged in.
 */

/** The transports the operation is offered on: its own list, else the server's. */
export function transportsOf(operation: OperationSpec, server: ServerSpec): readonly Transport[] {
  return operation.transports ?? server.transports;
}

export function servesHttp(operation: OperationSpec, server: ServerSpec): boolean {
  return transportsOf(operation, server).includes('streamable-http');
}

export function isListenStream(operation: OperationSpec): boolean {
  return operation.method === 'subscriptions/listen';
}

export function emitsProgress(operation: OperationSpec): boolean {
  return operation.progress?.emits === true;
}

/** The operation sends events that queue up for a slow consumer: progress, or a listen stream's notifications. */
export function streamsEvents(operation: OperationSpec): boolean {
  return emitsProgress(operation) || isListenStream(operation);
}

/** A declared mutation (each execution changes state). */
export function isMutation(operation: OperationSpec): boolean {
  return operation.sideEffect === 'mutation';
}

/** The side effect the review and retry classification assume: the declared one, else a mutation (the safe assumption). */
export function assumedSideEffect(operation: OperationSpec): SideEffect {
  return operation.sideEffect ?? 'mutation';
}

export function idempotencyKeyOf(operation: OperationSpec): string | undefined {
  return operation.idempotency?.keyArgument;
}

/** A declared mutation with an idempotency key: retried only with the same key and arguments. */
export function isKeyedMutation(operation: OperationSpec): boolean {
  return isMutation(operation) && idempotencyKeyOf(operation) !== undefined;
}

/**
 * A drop loses state that must be refetched: a stream's events, a mutation whose response may be lost, a
 * task's status. A plain read is simply issued again.
 */
export function losesStateOnDrop(operation: OperationSpec): boolean {
  return isListenStream(operation) || isMutation(operation) || usesTask(operation);
}

/** SAFE, CONDITIONAL or UNSAFE, from the contract (never from annotations); an undeclared side effect is a mutation. */
export function retryClassOf(operation: OperationSpec): RetryClassification {
  const key = idempotencyKeyOf(operation);
  return classifyRetry({ sideEffect: assumedSideEffect(operation), ...(key === undefined ? {} : { idempotencyKeyArgument: key }) });
}

const AUTOMATIC = new Set(['on-transport-error', 'on-timeout', 'on-transport-error-or-timeout']);
const ON_TIMEOUT = new Set(['on-timeout', 'on-transport-error-or-timeout']);

/** The client re-sends the request by itself after some failure. */
export function retriesAutomatically(operation: OperationSpec): boolean {
  return AUTOMATIC.has(operation.retry?.automatic ?? 'never');
}

/** The client re-sends the request by itself after a timeout (when the work may have committed). */
export function retriesOnTimeout(operation: OperationSpec): boolean {
  return ON_TIMEOUT.has(operation.retry?.automatic ?? 'never');
}

/** A mutation re-sent after a timeout without first looking up what the lost attempt did: the lesson's "retry on timeout". */
export function retriesOnTimeoutBlindly(operation: OperationSpec): boolean {
  return (
    isMutation(operation) &&
    retriesOnTimeout(operation) &&
    !(idempotencyKeyOf(operation) !== undefined && operation.retry?.reconcileFirst === true)
  );
}

const DURABLE_STORES = new Set(['sqlite', 'postgres', 'mysql', 'redis', 'dynamodb', 'upstream', 'other']);

/** Where the idempotency records live, as declared. */
export function ledgerStoreOf(operation: OperationSpec): string | undefined {
  return operation.idempotency?.ledger?.store;
}

/** An upstream provider that enforces the same key holds the records: durability, sharing and atomicity are its own. */
export function ledgerIsUpstream(operation: OperationSpec): boolean {
  return ledgerStoreOf(operation) === 'upstream';
}

/** Idempotency records survive a restart: a durable store declared durable, or an upstream that enforces the key. */
export function ledgerIsDurable(operation: OperationSpec): boolean {
  if (ledgerIsUpstream(operation)) return true;
  const store = ledgerStoreOf(operation);
  return store !== undefined && DURABLE_STORES.has(store) && operation.idempotency?.ledger?.durable === true;
}

/**
 * Every replica sees the same records: one replica, an upstream that enforces the key, or a durable store
 * declared shared — never a SQLite file, which lives on one host's disk.
 */
export function ledgerIsShared(operation: OperationSpec, replicas: number): boolean {
  if (replicas <= 1 || ledgerIsUpstream(operation)) return true;
  if (ledgerStoreOf(operation) === 'sqlite') return false;
  return ledgerIsDurable(operation) && operation.idempotency?.ledger?.sharedAcrossReplicas === true;
}

/** Key claim, effect record and stored result commit together (an upstream that enforces the key does that itself). */
export function ledgerIsAtomic(operation: OperationSpec): boolean {
  return ledgerIsUpstream(operation) || operation.idempotency?.ledger?.atomicWithEffect === true;
}

/** An external effect joins the atomic boundary through an outbox or an upstream key (a local effect needs neither). */
export function externalEffectIsProtected(operation: OperationSpec): boolean {
  const effect = operation.idempotency?.effect;
  return effect?.kind !== 'external-api' || effect.boundary === 'outbox' || effect.boundary === 'upstream-key';
}

export function returnsDefensiveCopies(operation: OperationSpec): boolean {
  return operation.idempotency?.returns === 'defensive-copy';
}

/** The event buffer's capacity, or null when it has none (not declared, or declared unbounded). */
export function bufferCapacityOf(operation: OperationSpec): number | null {
  const buffer = operation.flowControl?.progressBuffer;
  return buffer?.overflow === 'unbounded' ? null : (buffer?.capacity ?? null);
}

/** Room for a progress event and the final response, at least. */
export function bufferIsBounded(operation: OperationSpec): boolean {
  const capacity = bufferCapacityOf(operation);
  return capacity !== null && capacity >= 2;
}

/** How the client puts a cancellation on the wire on one transport: the policy's HTTP choice, else the revision's. */
export function cancelSignalOf(operation: OperationSpec, transport: Transport, revision: SpecVersion): 'notification' | 'close-stream' {
  if (transport === 'stdio') return 'notification';
  return operation.cancellation?.httpSignal ?? factsOf(revision)['http-cancel-signal'].value;
}

/** Whether the server treats a closed response stream as the cancellation: the policy's word, else the revision's. */
export function disconnectCancels(operation: OperationSpec, revision: SpecVersion): boolean {
  return operation.cancellation?.disconnectIsCancellation ?? factsOf(revision)['disconnect-is-cancellation'].value;
}

/** The operation reconnects after a drop: it has a response stream to lose (HTTP) or is a listen stream. */
export function reconnects(operation: OperationSpec, server: ServerSpec): boolean {
  return servesHttp(operation, server) || isListenStream(operation);
}

/**
 * The revision ties a request's progress to the originating request's own stream on Streamable HTTP (2026-07-28:
 * never the subscriptions/listen stream); where it does not (2025-11-25), the token ties progress to its request on
 * any stream.
 */
export function progressTiedToRequestStream(specVersion: SpecVersion): boolean {
  return factsOf(specVersion)['request-scoped-notifications'].value === 'originating-stream';
}

/** A backoff that spreads clients and stops growing. */
export function backoffIsCappedWithJitter(backoff: Backoff | undefined): boolean {
  return backoff?.capMs !== undefined && (backoff.jitter === 'full' || backoff.jitter === 'equal');
}

/**
 * The operation sends the request of a Task, whose state outlives the request. Only a tool call the client sends
 * runs as one (as method-protocol.ts plays it): a read, a prompt or a listen stream declared as a task is answered as
 * the plain request it is (fact task-methods; task-augmentable-method reports the declaration).
 */
export function usesTask(operation: OperationSpec): boolean {
  return operation.task?.used === true && operation.method === METHODS.toolsCall;
}

/**
 * How long after a first attempt a retry with the same key may still come: every attempt (maxAttempts, 3 when
 * not declared) may run to the maximum timeout, with the backoff's cap between attempts. Undefined without a
 * maximum timeout (nothing bounds the window). The rule idem-key-lifetime and the lost-response fixture both use it.
 */
export function retryWindowOf(
  operation: OperationSpec,
): { readonly ms: number; readonly attempts: number; readonly maxMs: number; readonly capMs: number } | undefined {
  const maxMs = operation.timeouts?.maxMs;
  if (maxMs === undefined) return undefined;
  const attempts = operation.retry?.maxAttempts ?? 3;
  const capMs = operation.retry?.backoff?.capMs ?? 0;
  return { ms: attempts * maxMs + (attempts - 1) * capMs, attempts, maxMs, capMs };
}
