import type { FixtureParameters } from '../fixtures/fixture-types.js';
import type { OperationSpec } from '../manifest/types.js';
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../spec/transports.js';
import { reconnectPlan } from '../reference/recovery.js';
import type { RetryClass } from '../reference/classify-retry.js';
import type { OperationReview, Section, WireRow } from './review-types.js';

/** How a cancellation travels on each transport the operation uses, under its revision, against what the policy declares. */
export function cancellationWire(operation: OperationSpec, transports: readonly Transport[], specVersion: SpecVersion): WireRow[] {
  const declared = operation.cancellation?.httpSignal;
  return transports.map((transport) => {
    if (transport === 'stdio') {
      return { transport, clientSignal: 'notifications/cancelled {requestId, reason}', server: 'stops the work, frees resources, sends no response; ignores unknown, late or malformed cancellations', ok: operation.cancellation?.suppressResponseAfterCancel === true };
    }
    if (specVersion === '2026-07-28') {
      return { transport, clientSignal: `close the request's SSE response stream (no notification)${declared === 'notification' ? ' — the policy POSTs notifications/cancelled instead' : ''}`, server: 'treats the disconnect as cancellation and sends nothing more for the request', ok: declared !== 'notification' && operation.cancellation?.disconnectIsCancellation !== false };
    }
    return { transport, clientSignal: `POST notifications/cancelled {requestId, reason}${declared === 'close-stream' ? ' — the policy only closes the stream, which does not cancel on 2025-11-25' : ''}`, server: 'stops on the notification; a disconnect alone is not a cancellation', ok: declared !== 'close-stream' && operation.cancellation?.disconnectIsCancellation !== true };
  });
}

export function deadlines(parameters: FixtureParameters): Section {
  const { idleTimeoutMs: idle, maxTimeoutMs: max } = parameters;
  return {
    checks: [
      { ok: idle !== null && idle > 0, text: idle === null ? 'no idle timeout' : `idle timeout ${idle} ms${parameters.resetIdleOnProgress ? ', reset by progress' : ''}` },
      { ok: max !== null, text: max === null ? 'no maximum timeout: progress can keep the request open for ever' : `maximum timeout ${max} ms from the start of the request` },
      { ok: max === null || idle === null || max >= idle, text: 'the maximum is at least the idle timeout' },
      { ok: !parameters.resetMaxOnProgress, text: parameters.resetMaxOnProgress ? 'progress resets the maximum too: it never fires while progress flows' : 'progress never extends the maximum' },
      { ok: !parameters.keepaliveCountsAsActivity, text: parameters.keepaliveCountsAsActivity ? 'keep-alive comments reset the idle clock' : 'keep-alive comments are not activity' },
    ],
  };
}

export function retrySummary(operation: OperationSpec): { automatic: string; backoff: string } {
  const retry = operation.retry ?? {};
  const backoff = retry.backoff;
  return {
    automatic: retry.automatic ?? 'not declared',
    backoff: backoff === undefined ? 'not declared' : `base ${backoff.baseMs ?? '?'} ms, cap ${backoff.capMs ?? 'none'} ms, jitter ${backoff.jitter ?? 'not declared'}`,
  };
}

/** What commits atomically with the key, and what does not. */
export function idempotencyBoundary(operation: OperationSpec, replicas: number): OperationReview['idempotencyBoundary'] {
  const idempotency = operation.idempotency;
  if (operation.sideEffect !== 'mutation') return { inside: [], outside: [], notes: [`no mutation (side effect: ${operation.sideEffect ?? 'not declared'}): no idempotency boundary needed`] };
  if (idempotency?.keyArgument === undefined) return { inside: [], outside: ['the business effect', 'any record of it'], notes: ['no idempotency key: a retry with a new JSON-RPC id executes again'] };
  const ledger = idempotency.ledger ?? {};
  const effect = idempotency.effect ?? {};
  const inside: string[] = [];
  const outside: string[] = [];
  (ledger.atomicWithEffect ? inside : outside).push(`key claim on ${idempotency.keyArgument}`, 'fingerprint check', 'stored result');
  if (effect.kind === 'external-api') {
    if (effect.boundary === 'outbox') inside.push('outbox record of the external call (delivered after commit)');
    else if (effect.boundary === 'upstream-key') outside.push('external call (protected: the same key is passed upstream)');
    else outside.push('external call (unprotected: a crash after it and before the commit repeats it)');
  } else (ledger.atomicWithEffect ? inside : outside).push('local effect record');
  const notes = [
    `fingerprint: ${idempotency.fingerprint?.length ? idempotency.fingerprint.join(', ') : 'none (a reused key with other arguments is not detected)'}`,
    `ledger: ${ledger.store ?? 'store not declared'}, ${ledger.durable ? 'durable' : 'not durable'}, ${replicas > 1 ? (ledger.sharedAcrossReplicas ? `shared by ${replicas} replicas` : `process-local while ${replicas} replicas serve requests`) : 'one replica'}`,
    `results: ${idempotency.returns === 'defensive-copy' ? 'rebuilt from stored JSON (defensive copies)' : idempotency.returns === 'shared-reference' ? 'the stored object itself (aliased)' : 'not declared'}`,
  ];
  return { inside, outside, notes };
}

export function flowControl(operation: OperationSpec, parameters: FixtureParameters): Section {
  const streams = operation.progress?.emits === true || operation.method === 'subscriptions/listen';
  if (!streams) return { checks: [{ ok: true, text: 'no progress or stream events to queue' }] };
  const capacity = parameters.bufferCapacity;
  return {
    checks: [
      { ok: capacity !== null && capacity >= 2, text: capacity === null ? 'queue capacity unspecified (unbounded)' : `queue capacity ${capacity}` },
      { ok: parameters.overflow === 'coalesce-then-drop-oldest', text: `overflow: ${parameters.overflow ?? 'not declared'}` },
      { ok: parameters.preserveFinal, text: parameters.preserveFinal ? 'final responses are never dropped' : 'final responses may be dropped' },
      { ok: parameters.refetchOnDrop, text: parameters.refetchOnDrop ? 'a lossy stream is marked for refetch' : 'losses are silent (no refetch mark)' },
      { ok: operation.progress?.emits !== true || (operation.progress.minIntervalMs ?? 0) > 0, text: `progress rate limit: ${operation.progress?.minIntervalMs === undefined ? 'none' : `one per ${operation.progress.minIntervalMs} ms`}` },
    ],
  };
}

export function reconnect(operation: OperationSpec, specVersion: SpecVersion, retry: RetryClass): Section {
  const policy = operation.recovery ?? {};
  const plan = reconnectPlan({ specVersion, previousRequestId: 'r1', affected: policy.refetch ?? [], inFlight: retry });
  return {
    checks: [
      { ok: policy.reconnect?.newRequestId === true, text: `re-issue as a new request (${plan.newRequestId}): ${policy.reconnect?.newRequestId === true ? 'yes' : 'not declared'}` },
      { ok: !(specVersion === '2026-07-28' && policy.reconnect?.sendLastEventId === true), text: policy.reconnect?.sendLastEventId === true ? 'resumes with Last-Event-ID' : 'no Last-Event-ID' },
      { ok: plan.refetch.length > 0 || (operation.method !== 'subscriptions/listen' && operation.sideEffect !== 'mutation' && operation.task?.used !== true), text: plan.refetch.length > 0 ? `refetch: ${plan.refetch.join('; ')}` : 'refetch: nothing listed' },
      { ok: policy.replayUnsafeMutations !== true, text: `the request in flight: ${plan.inFlight}${policy.replayUnsafeMutations === true ? ' — but the policy replays unsafe mutations automatically' : ''}` },
      { ok: policy.reconnect?.backoff?.capMs !== undefined && ['full', 'equal'].includes(policy.reconnect.backoff.jitter ?? ''), text: `reconnect backoff: ${policy.reconnect?.backoff === undefined ? 'not declared' : `cap ${policy.reconnect.backoff.capMs ?? 'none'} ms, jitter ${policy.reconnect.backoff.jitter ?? 'none'}`}` },
    ],
  };
}

export function tasks(operation: OperationSpec, specVersion: SpecVersion): Section | null {
  const task = operation.task;
  if (task?.used !== true) return null;
  const acknowledged = specVersion === '2026-07-28';
  return {
    checks: [
      { ok: task.cancelVia !== 'notifications/cancelled', text: `cancelled with ${task.cancelVia ?? 'tasks/cancel (not declared)'}` },
      { ok: acknowledged ? task.cancel === 'acknowledge-then-checkpoint' && task.ackIsTerminal !== true : task.cancel === 'immediate-terminal', text: acknowledged ? `tasks/cancel acknowledges; the task stays working until a worker checkpoint${task.ackIsTerminal ? ' — but the client treats the acknowledgement as final' : ''}` : 'tasks/cancel moves the task to cancelled before answering' },
      { ok: task.store === 'durable' && task.survivesDisconnect === true, text: `task state: ${task.store ?? 'store not declared'}, ${task.survivesDisconnect ? 'outlives the connection' : 'tied to the connection'}` },
      { ok: task.clientWaits === 'poll' || task.clientWaits === 'listen', text: `the client ${task.clientWaits === 'poll' ? `polls tasks/get every ${task.pollIntervalMs ?? '?'} ms` : task.clientWaits === 'listen' ? 'listens for status changes' : 'does not wait'} until a terminal status` },
    ],
  };
}
