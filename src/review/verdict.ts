import type { Finding } from '../findings/finding.js';
import type { FixtureParameters } from '../fixtures/fixture-types.js';
import type { OperationSpec } from '../manifest/types.js';
import type { Verdict } from './review-types.js';

/**
 * The verdict refuses "production-ready" on each condition of the lesson's reviewer checklist, naming it,
 * and on any error the linter reports for the operation.
 */
export function verdict(operation: OperationSpec, parameters: FixtureParameters, findings: readonly Finding[]): Verdict {
  const refusals: { condition: string; detail: string }[] = [];
  const mutation = operation.sideEffect === 'mutation';
  const idempotency = operation.idempotency;
  const keyed = idempotency?.keyArgument !== undefined;
  const automatic = operation.retry?.automatic;
  if (mutation && (automatic === 'on-timeout' || automatic === 'on-transport-error-or-timeout') && !(keyed && operation.retry?.reconcileFirst === true)) {
    refusals.push({ condition: 'retry is only "retry on timeout"', detail: `a mutation is re-sent after a timeout ${keyed ? 'without reconciling first' : 'without an idempotency key'}` });
  }
  if (mutation && keyed && (!parameters.ledger.durable || (parameters.replicas > 1 && !parameters.ledger.sharedAcrossReplicas))) {
    refusals.push({ condition: 'the ledger is process-local', detail: !parameters.ledger.durable ? 'idempotency records do not survive a restart' : `records are not shared by the ${parameters.replicas} replicas` });
  }
  if (mutation && keyed && ((idempotency?.effect?.kind === 'external-api' && !['outbox', 'upstream-key'].includes(idempotency.effect.boundary ?? '')) || !parameters.ledger.atomicWithEffect)) {
    refusals.push({ condition: 'the external effect sits outside the atomic boundary', detail: !parameters.ledger.atomicWithEffect ? 'key claim, effect and result are not one atomic commit' : 'an external call with neither an outbox nor an upstream key' });
  }
  if (mutation && keyed && parameters.returns !== 'defensive-copy') {
    refusals.push({ condition: 'returned records alias mutable storage', detail: parameters.returns === 'shared-reference' ? 'results are the stored objects' : 'results are not declared to be defensive copies' });
  }
  const streams = operation.progress?.emits === true || operation.method === 'subscriptions/listen';
  if (streams && (parameters.bufferCapacity === null || parameters.bufferCapacity < 2)) {
    refusals.push({ condition: 'queue capacity is unspecified', detail: parameters.bufferCapacity === null ? 'progress is queued without a bound' : `a capacity of ${parameters.bufferCapacity} cannot hold progress and the final response` });
  }
  const errors = [...new Set(findings.filter((finding) => finding.severity === 'error' && finding.suppression === undefined).map((finding) => finding.ruleId))];
  if (errors.length > 0) refusals.push({ condition: 'lint errors', detail: errors.join(', ') });
  return { productionReady: refusals.length === 0, refusals };
}
