import type { Manifest, OperationSpec, ServerSpec } from '../manifest/types.js';
import {
  emitsProgress,
  externalEffectIsProtected,
  isListenStream,
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
import { taskResultReadByMs } from '../policy/task-timing.js';
import { HOST_LIMITS } from '../spec/host-limits.js';
import { fact } from '../spec/revision-facts.js';
import { DEGENERATE_FLOORS } from '../policy/degenerate-floors.js';

/** `manifest` reaches the revision (a caller outside the rules may leave it out: a field that needs it is then undefined). */
type Derived = (operation: OperationSpec, server: ServerSpec, manifest?: Manifest) => unknown;

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
  /**
   * The operation's method when the manifest's revision cannot run it as a task (fact task-methods), undefined when
   * it can: a rule about a task reads `{ field: $taskRefusedMethod, defined: false }`, and the rule about the claim
   * itself names the method.
   */
  $taskRefusedMethod: (operation, _server, manifest) =>
    manifest === undefined || fact(manifest.specVersion, 'task-methods').value.includes(operation.method) ? undefined : operation.method,
  /** The task poll interval below which clients poll faster than the SDK's own pace (src/policy/degenerate-floors.ts). */
  $taskPollFloorMs: () => DEGENERATE_FLOORS.taskPollMs,
  /** The requestState TTL below which a round gets less time than the same question asked as a request (src/policy/degenerate-floors.ts). */
  $requestStateFloorMs: () => DEGENERATE_FLOORS.requestStateTtlMs,
  /** When a client following the policy reads the result of work that ends at the maximum timeout (policy/task-timing.ts). */
  $taskResultReadByMs: (operation) => taskResultReadByMs(operation),
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
  /** One request-response round trip: a request timeout below it cancels every request before its answer (src/policy/degenerate-floors.ts). */
  $roundTripMs: () => DEGENERATE_FLOORS.roundTripMs,
  /** The shortest progress rate limit that limits anything (src/policy/degenerate-floors.ts). */
  $progressRateLimitFloorMs: () => DEGENERATE_FLOORS.progressRateLimitMs,
  /** The smallest backoff base that spreads a herd's first retries (src/policy/degenerate-floors.ts). */
  $backoffBaseFloorMs: () => DEGENERATE_FLOORS.backoffBaseMs,
  /**
   * The server's SSE keep-alive comments can reach the request inside its idle window: it is served over
   * Streamable HTTP, has an idle timeout, and the declared keep-alive interval is shorter than it. A keep-alive
   * that comes only after the idle timeout fired (or none, where none is declared) resets nothing.
   */
  $keepaliveWithinIdle: (operation, server) => keepaliveWithinIdle(operation, server),
  /**
   * Something the policy lets through can reset the request's idle clock: progress it sends and resets the clock
   * on (not a Task, whose requests are tasks/get polls that carry none; not a listen stream, which carries none),
   * or keep-alive comments it counts as activity that come inside the idle window. Where nothing can, the idle
   * timeout, never reset, bounds the request from its start.
   */
  $idleClockResets: (operation, server) =>
    (emitsProgress(operation) && operation.timeouts?.resetIdleOnProgress === true && !usesTask(operation) && !isListenStream(operation)) ||
    (operation.timeouts?.keepaliveCountsAsActivity === true && keepaliveWithinIdle(operation, server)),
};

function keepaliveWithinIdle(operation: OperationSpec, server: ServerSpec): boolean {
  const keepalive = server.http?.keepaliveMs;
  const idle = operation.timeouts?.idleMs;
  return servesHttp(operation, server) && keepalive !== undefined && keepalive > 0 && idle !== undefined && idle > 0 && keepalive < idle;
}

function hostIdleLimitMs(operation: OperationSpec, server: ServerSpec): number {
  return Math.min(...(operation.transports ?? server.transports).map((transport) => HOST_LIMITS.idleMs[transport]));
}
