import type { OperationSpec, ServerSpec } from '../manifest/types.js';
import {
  externalEffectIsProtected,
  isKeyedMutation,
  ledgerIsAtomic,
  ledgerIsDurable,
  ledgerIsShared,
  ledgerIsUpstream,
  losesStateOnDrop,
  reconnects,
  retriesAutomatically,
  retryWindowOf,
  retriesOnTimeout,
  retryClassOf,
  servesHttp,
  streamsEvents,
  usesTask,
} from '../policy/predicates.js';
import { HOST_LIMITS } from '../spec/host-limits.js';

type Derived = (operation: OperationSpec, server: ServerSpec) => unknown;

/**
 * The `$` fields a declarative rule may read from an operation: questions the policy model answers
 * (src/policy/predicates.ts), so a rule says "$streams" instead of spelling out what streaming means again.
 */
export const DERIVED_FIELDS: Readonly<Record<string, Derived>> = {
  $streams: (operation) => streamsEvents(operation),
  $stateful: (operation) => losesStateOnDrop(operation),
  $keyedMutation: (operation) => isKeyedMutation(operation),
  $retryClass: (operation) => retryClassOf(operation).classification,
  $retriesAutomatically: (operation) => retriesAutomatically(operation),
  $retriesOnTimeout: (operation) => retriesOnTimeout(operation),
  $servesHttp: (operation, server) => servesHttp(operation, server),
  $reconnects: (operation, server) => reconnects(operation, server),
  $usesTask: (operation) => usesTask(operation),
  $ledgerDurable: (operation) => ledgerIsDurable(operation),
  $ledgerShared: (operation, server) => ledgerIsShared(operation, server.replicas ?? 1),
  $ledgerAtomic: (operation) => ledgerIsAtomic(operation),
  $ledgerUpstream: (operation) => ledgerIsUpstream(operation),
  $externalEffectProtected: (operation) => externalEffectIsProtected(operation),
  /** The shortest idle limit hosts apply on the transports the operation is offered on. */
  $hostIdleLimitMs: (operation, server) => hostIdleLimitMs(operation, server),
  /** The operation may run longer than the host's idle limit (timeouts.maxMs above it): it must not fall silent that long. */
  $mayOutlastHostIdle: (operation, server) =>
    operation.timeouts?.maxMs === undefined ? undefined : operation.timeouts.maxMs > hostIdleLimitMs(operation, server),
  /**
   * How long after the first attempt a retry with the same key may still come: every attempt may run to the
   * maximum timeout, with the backoff's cap between attempts. Undefined without automatic retry.
   */
  $retryWindowMs: (operation) => (retriesAutomatically(operation) ? retryWindowOf(operation)?.ms : undefined),
};

function hostIdleLimitMs(operation: OperationSpec, server: ServerSpec): number {
  return Math.min(...(operation.transports ?? server.transports).map((transport) => HOST_LIMITS.idleMs[transport]));
}
