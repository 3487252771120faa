// Writes the throughput corpus: FILES manifests × OPERATIONS operations (default 100 × 100 = 10 000),
// every operation complete and varied (keyed mutations, reads, task-backed jobs, listen streams), and clean
// under every rule (no finding), so the linter does its full work on each. Deterministic: the same corpus on every machine.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BACKOFF = '{ baseMs: 250, capMs: 8000, jitter: full }';

const KINDS = [
  (i) => `  - name: charge_${i}
    method: tools/call
    description: Charges account ${i}.
    sideEffect: mutation
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true }
    timeouts: { idleMs: ${5000 + (i % 7) * 1000}, maxMs: ${60000 + (i % 5) * 1000} }
    progress: { emits: true, minIntervalMs: 250, receiverMinIntervalMs: 250 }
    cancellation: { stopsWork: checkpoint }
    retry:
      automatic: on-transport-error-or-timeout
      maxAttempts: 3
      newRequestId: true
      reconcileFirst: true
      backoff: ${BACKOFF}
    idempotency:
      keyArgument: idempotencyKey
      fingerprint: [account, cents]
      onKeyReuseWithOtherArguments: reject
      whileInFlight: wait
      keyTtlMs: 86400000
      ledger: { store: postgres, durable: true, sharedAcrossReplicas: true, atomicWithEffect: true }
      effect: { kind: external-api, boundary: upstream-key }
      returns: defensive-copy
      reconcileByKey: true
    recovery:
      refetch: ["resources/read ledger://accounts/{account}"]`,
  (i) => `  - name: read_${i}
    method: resources/read
    description: Reads record ${i}.
    sideEffect: none
    timeouts: { idleMs: 5000, maxMs: ${15000 + (i % 3) * 1000} }
    retry:
      automatic: on-transport-error-or-timeout
      maxAttempts: 3
      newRequestId: true
      backoff: { baseMs: 100, capMs: 2000, jitter: full }`,
  (i) => `  - name: reindex_${i}
    method: tools/call
    description: Rebuilds index ${i} as a durable task.
    sideEffect: idempotent
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    timeouts: { idleMs: 30000, maxMs: 60000 }
    progress: { emits: true, minIntervalMs: 1000, receiverMinIntervalMs: 500 }
    cancellation: { stopsWork: checkpoint }
    task:
      used: true
      cancel: acknowledge-then-checkpoint
      cancelVia: tasks/cancel
      ackIsTerminal: false
      store: durable
      survivesDisconnect: true
      clientWaits: poll
      pollIntervalMs: 5000
      ttlMs: 86400000
    recovery:
      refetch: ["tasks/get {taskId}"]`,
  (i) => `  - name: watch_${i}
    method: subscriptions/listen
    description: Streams changes of collection ${i}.
    sideEffect: none
    timeouts: { idleMs: 45000, maxMs: 3600000, resetIdleOnProgress: false }
    cancellation: { stopsWork: immediately, serverSendsCancelled: true }
    flowControl:
      progressBuffer: { capacity: ${64 + (i % 4) * 64}, overflow: coalesce-then-drop-oldest }
      preserveFinal: true
      refetchOnDrop: true
    recovery:
      reconnect: { restoresFilter: true, carriesToolName: false }
      dedupeBy: eventId
      refetch: ["resources/read store://collections/${i}", "resources/list"]`,
];

const HEADER = `mcprely: 1
specVersion: "2026-07-28"
server:
  name: corpus
  transports: [stdio, streamable-http]
  replicas: 3
  http:
    endpoint: /mcp
    sseHeaders: { Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: "no" }
    keepaliveMs: 15000
    proxyIdleTimeoutMs: 60000
defaults:
  timeouts: { idleMs: 30000, maxMs: 120000, resetIdleOnProgress: true, resetMaxOnProgress: false, keepaliveCountsAsActivity: false, cancelOnTimeout: true }
  progress: { emits: false }
  cancellation: { stopsWork: immediately, suppressResponseAfterCancel: true, httpSignal: close-stream, disconnectIsCancellation: true, invalidOrLate: ignore }
  retry: { automatic: never }
  flowControl:
    progressBuffer: { capacity: 64, overflow: coalesce-then-drop-oldest }
    preserveFinal: true
    refetchOnDrop: true
  recovery:
    reconnect: { newRequestId: true, sendLastEventId: false, backoff: ${BACKOFF} }
    replayUnsafeMutations: false
  task: { used: false }
operations:
`;

/**
 * The flawed corpus: the same manifests with every maximum timeout removed and Last-Event-ID resumption turned
 * on in the defaults, so every operation has findings (about two each: 20 000 over 10 000 operations).
 */
export function flawed(text) {
  return text
    .replace(/, maxMs: \d+/g, '')
    .replace(/maxMs: \d+, /g, '')
    .replace('sendLastEventId: false', 'sendLastEventId: true');
}

export function generateCorpus(dir, files = 100, operations = 100, transform = (text) => text) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const paths = [];
  for (let file = 0; file < files; file++) {
    const ops = [];
    for (let op = 0; op < operations; op++) {
      const i = file * operations + op;
      ops.push(KINDS[i % KINDS.length](i));
    }
    const path = join(dir, `service-${String(file).padStart(3, '0')}.yaml`);
    writeFileSync(path, transform(`${HEADER + ops.join('\n')}\n`));
    paths.push(path);
  }
  return paths;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? fileURLToPath(new URL('corpus', import.meta.url));
  const paths = generateCorpus(dir);
  console.log(`wrote ${paths.length} manifests to ${dir}`);
}
