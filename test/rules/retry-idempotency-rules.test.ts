import { manifest } from '../helpers/lint-text.js';
import { ruleTester } from '../helpers/rule-tester.js';

// Lines: 1 mcprely, 2 specVersion, 3 server, 4 operations:, 5 "- name", 6 method, 7 sideEffect, 8 and on: the fields.
const mutation = (fields: string, sideEffect = 'mutation') =>
  `  - name: charge\n    method: tools/call\n    sideEffect: ${sideEffect}\n${fields}`;
const KEYED =
  '    idempotency: { keyArgument: key, fingerprint: [account, cents], onKeyReuseWithOtherArguments: reject, ' +
  'ledger: { store: postgres, durable: true, sharedAcrossReplicas: true, atomicWithEffect: true }, returns: defensive-copy }';

ruleTester('retry-mutation-needs-key', {
  valid: [
    { name: 'keyed mutation retried', manifest: manifest({ operations: mutation(`    retry: { automatic: on-timeout }\n${KEYED}`) }) },
    { name: 'unkeyed mutation never retried', manifest: manifest({ operations: mutation('    retry: { automatic: never }') }) },
    { name: 'a read retried', manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout }', 'none') }) },
    {
      name: 'an idempotent operation retried',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-transport-error }', 'idempotent') }),
    },
  ],
  invalid: [
    {
      name: 'retry on timeout without key',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout }') }),
      findings: [{ path: '/operations/0/idempotency/keyArgument', line: 5 }],
    },
    {
      name: 'retry on transport error with a key-less idempotency block',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-transport-error }\n    idempotency: { fingerprint: [a] }') }),
      findings: [{ path: '/operations/0/idempotency/keyArgument', line: 9 }],
    },
    {
      name: 'retry switched on in defaults',
      manifest: manifest({
        defaults: '  retry: { automatic: on-transport-error-or-timeout }',
        operations: mutation('    annotations: { readOnlyHint: false }'),
      }),
      findings: [{ path: '/operations/0/idempotency/keyArgument', line: 7 }],
    },
  ],
});

ruleTester('retry-reconcile-first', {
  valid: [
    { name: 'reconciles', manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout, reconcileFirst: true }') }) },
    {
      name: 'retried on transport errors only (no timeout race)',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-transport-error }') }),
    },
    { name: 'a read retried on timeout', manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout }', 'none') }) },
    {
      name: 'reconciles by a key the server can look up',
      manifest: manifest({
        operations: mutation(
          '    retry: { automatic: on-timeout, reconcileFirst: true }\n    idempotency: { keyArgument: key, reconcileByKey: true }',
        ),
      }),
    },
    {
      name: 'a server that cannot look keys up, but the client does not claim to reconcile (only the plain finding)',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-transport-error }\n    idempotency: { keyArgument: key, reconcileByKey: false }'),
      }),
    },
  ],
  invalid: [
    {
      name: 'plain retry on timeout',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout }') }),
      findings: [{ path: '/operations/0/retry/reconcileFirst', line: 8, messageId: 'default', severity: 'warn' }],
    },
    {
      name: 'reconciles first by key, but the server cannot look a key up: reported at reconcileByKey',
      manifest: manifest({
        operations: mutation(
          '    retry: { automatic: on-timeout, reconcileFirst: true }\n    idempotency: { keyArgument: key, reconcileByKey: false }',
        ),
      }),
      findings: [{ path: '/operations/0/idempotency/reconcileByKey', line: 9, messageId: 'cannot-look-up', severity: 'warn' }],
    },
    {
      name: 'no reconciliation and no lookup: one finding, the missing reconciliation',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout }\n    idempotency: { keyArgument: key, reconcileByKey: false }'),
      }),
      findings: [{ path: '/operations/0/retry/reconcileFirst', line: 8, messageId: 'default' }],
    },
  ],
});

ruleTester('retry-hints-not-contracts', {
  valid: [
    { name: 'read-only read', manifest: manifest({ operations: mutation('    annotations: { readOnlyHint: true }', 'none') }) },
    {
      name: 'idempotent hint on a keyed mutation',
      manifest: manifest({ operations: mutation(`    annotations: { idempotentHint: true }\n${KEYED}`) }),
    },
  ],
  invalid: [
    {
      name: 'read-only hint on a mutation: the annotation is the line to change',
      manifest: manifest({ operations: mutation('    annotations: { readOnlyHint: true }') }),
      findings: [{ path: '/operations/0/annotations/readOnlyHint', line: 8, messageId: 'read-only', severity: 'error' }],
    },
    {
      name: 'read-only hint on an idempotent operation',
      manifest: manifest({ operations: mutation('    annotations:\n      readOnlyHint: true', 'idempotent') }),
      findings: [{ path: '/operations/0/annotations/readOnlyHint', line: 9, messageId: 'read-only' }],
    },
    {
      name: 'idempotent hint on an unkeyed mutation',
      manifest: manifest({ operations: mutation('    annotations: { idempotentHint: true }') }),
      findings: [{ path: '/operations/0/annotations/idempotentHint', line: 8, messageId: 'idempotent', severity: 'warn' }],
    },
    {
      name: 'the lying annotation inherited from defaults',
      manifest: manifest({ defaults: '  annotations: { readOnlyHint: true }', operations: mutation('    retry: { automatic: never }') }),
      findings: [{ path: '/operations/0/annotations/readOnlyHint', line: 5, messageId: 'read-only' }],
    },
  ],
});

ruleTester('retry-side-effect-declared', {
  valid: [
    { name: 'declared', manifest: manifest({ operations: mutation('    retry: { automatic: never }') }) },
    { name: 'a resource read needs none', manifest: manifest({ operations: '  - name: read\n    method: resources/read' }) },
  ],
  invalid: [
    {
      name: 'only hints',
      manifest: manifest({ operations: '  - name: charge\n    method: tools/call\n    annotations: { idempotentHint: true }' }),
      findings: [{ path: '/operations/0/sideEffect', line: 5 }],
    },
  ],
});

const BACKOFF = '{ baseMs: 250, capMs: 8000, jitter: full }';

ruleTester('retry-backoff', {
  valid: [
    {
      name: 'capped and jittered, the cap at the 100 ms bound itself, the base at the 10 ms bound itself',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 10, capMs: 100, jitter: equal } }', 'none'),
      }),
    },
    {
      name: 'no base declared (the backoff starts from its usual 250 ms)',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout, backoff: { capMs: 8000, jitter: full } }', 'none') }),
    },
    {
      name: 'no automatic retry, no backoff needed',
      manifest: manifest({
        operations: mutation('    retry: { automatic: never, backoff: { baseMs: 0, capMs: 0, jitter: none } }', 'none'),
      }),
    },
    {
      name: '10 attempts: the bound itself',
      manifest: manifest({ operations: mutation(`    retry: { automatic: on-timeout, maxAttempts: 10, backoff: ${BACKOFF} }`, 'none') }),
    },
    {
      name: 'many attempts declared, but no automatic retry',
      manifest: manifest({ operations: mutation(`    retry: { automatic: never, maxAttempts: 300, backoff: ${BACKOFF} }`, 'none') }),
    },
  ],
  invalid: [
    {
      name: 'no cap, no jitter: errors (the herd comes back in lock-step)',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 100, jitter: none } }', 'none') }),
      findings: [
        { path: '/operations/0/retry/backoff/capMs', line: 8, messageId: 'default', severity: 'error' },
        { path: '/operations/0/retry/backoff/jitter', line: 8, messageId: 'default', severity: 'error' },
      ],
    },
    {
      name: 'retried automatically with no backoff at all: an error, at the retry block',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-transport-error, maxAttempts: 3 }', 'idempotent') }),
      findings: [
        { path: '/operations/0/retry/backoff/capMs', line: 8, messageId: 'default', severity: 'error' },
        { path: '/operations/0/retry/backoff/jitter', line: 8, messageId: 'default', severity: 'error' },
      ],
    },
    {
      name: 'retry switched on in defaults, no backoff anywhere',
      manifest: manifest({
        defaults: '  retry: { automatic: on-timeout }',
        operations: mutation('    timeouts: { idleMs: 5000, maxMs: 60000 }', 'none'),
      }),
      findings: [
        { path: '/operations/0/retry/backoff/capMs', line: 5, severity: 'error' },
        { path: '/operations/0/retry/backoff/jitter', line: 5, severity: 'error' },
      ],
    },
    {
      name: 'jitter none, capped: every client retries at the same instant',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 250, capMs: 8000, jitter: none } }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/jitter', line: 8, messageId: 'default', severity: 'error' }],
    },
    {
      name: 'a base of 0 ms: every wait is 0',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 0, capMs: 8000, jitter: full } }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/baseMs', line: 8, messageId: 'zero-base', severity: 'error' }],
    },
    {
      name: 'a base of 1 ms: the first retries of the herd come back within a millisecond',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 1, capMs: 8000, jitter: full } }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/baseMs', line: 8, messageId: 'small-base', severity: 'error' }],
    },
    {
      name: 'a base of 9 ms, just under the bound, from the defaults',
      manifest: manifest({
        defaults: '  retry: { backoff: { baseMs: 9, capMs: 8000, jitter: full } }',
        operations: mutation('    retry: { automatic: on-timeout }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/baseMs', line: 5, messageId: 'small-base' }],
    },
    {
      name: 'a cap of 0 ms',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 250, capMs: 0, jitter: full } }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/capMs', line: 8, messageId: 'small-cap', severity: 'error' }],
    },
    {
      name: 'a cap of 1 ms: the herd is back within a millisecond',
      manifest: manifest({
        operations: mutation('    retry: { automatic: on-timeout, backoff: { baseMs: 250, capMs: 1, jitter: full } }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/capMs', line: 8, messageId: 'small-cap', severity: 'error' }],
    },
    {
      name: 'a cap of 99 ms, just under the bound, from the defaults',
      manifest: manifest({
        defaults: '  retry: { backoff: { baseMs: 10, capMs: 99, jitter: full } }',
        operations: mutation('    retry: { automatic: on-timeout }', 'none'),
      }),
      findings: [{ path: '/operations/0/retry/backoff/capMs', line: 5, messageId: 'small-cap' }],
    },
    {
      name: '300 attempts: past the cap every attempt is steady load on a recovering server',
      manifest: manifest({ operations: mutation(`    retry: { automatic: on-timeout, maxAttempts: 300, backoff: ${BACKOFF} }`, 'none') }),
      findings: [{ path: '/operations/0/retry/maxAttempts', line: 8, messageId: 'attempts', severity: 'warn' }],
    },
    {
      name: '11 attempts, from the defaults',
      manifest: manifest({
        defaults: '  retry: { maxAttempts: 11 }',
        operations: mutation(`    retry: { automatic: on-transport-error, backoff: ${BACKOFF} }`, 'idempotent'),
      }),
      findings: [{ path: '/operations/0/retry/maxAttempts', line: 5, messageId: 'attempts' }],
    },
  ],
});

ruleTester('retry-new-request-id', {
  valid: [{ name: 'new id by default', manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout }', 'none') }) }],
  invalid: [
    {
      name: 'same id',
      manifest: manifest({ operations: mutation('    retry: { automatic: on-timeout, newRequestId: false }', 'none') }),
      findings: [{ path: '/operations/0/retry/newRequestId', line: 8 }],
    },
  ],
});

ruleTester('idem-fingerprint-required', {
  valid: [
    { name: 'fingerprinted', manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, fingerprint: [a] }') }) },
    {
      name: 'a key on a read binds nothing that matters',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key }', 'none') }),
    },
    {
      name: 'a key on an idempotent operation',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key }', 'idempotent') }),
    },
  ],
  invalid: [
    {
      name: 'no fingerprint',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key }') }),
      findings: [{ path: '/operations/0/idempotency/fingerprint', line: 8 }],
    },
    {
      name: 'an empty fingerprint',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, fingerprint: [] }') }),
      findings: [{ path: '/operations/0/idempotency/fingerprint', line: 8 }],
    },
  ],
});

ruleTester('idem-key-reuse-rejected', {
  valid: [
    {
      name: 'rejects',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, onKeyReuseWithOtherArguments: reject }') }),
    },
  ],
  invalid: [
    {
      name: 'executes again',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, onKeyReuseWithOtherArguments: execute }') }),
      findings: [{ path: '/operations/0/idempotency/onKeyReuseWithOtherArguments', line: 8 }],
    },
  ],
});

ruleTester('idem-ledger-durable', {
  valid: [
    {
      name: 'durable',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: sqlite, durable: true } }') }),
    },
    {
      name: 'an upstream that enforces the key keeps the records',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: upstream } }') }),
    },
    {
      name: 'postgres, durable',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: postgres, durable: true } }') }),
    },
    { name: 'no key: nothing to keep', manifest: manifest({ operations: mutation('    idempotency: { ledger: { store: memory } }') }) },
  ],
  invalid: [
    {
      name: 'a database not declared durable',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: redis, durable: false } }') }),
      findings: [{ path: '/operations/0/idempotency/ledger/durable', line: 8, messageId: 'durable' }],
    },
    {
      name: 'no store declared',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key }') }),
      findings: [{ path: '/operations/0/idempotency/ledger/store', line: 8, messageId: 'store' }],
    },
    {
      name: 'in memory',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: memory, durable: false } }') }),
      findings: [{ path: '/operations/0/idempotency/ledger/store', line: 8 }],
    },
  ],
});

ruleTester('idem-ledger-shared', {
  valid: [
    {
      name: 'one replica with a local ledger',
      manifest: manifest({
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: sqlite, sharedAcrossReplicas: false } }'),
      }),
    },
    {
      name: 'replicas sharing a database',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 3 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: postgres, sharedAcrossReplicas: true } }'),
      }),
    },
    {
      name: 'replicas behind an upstream that enforces the key',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 3 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: upstream } }'),
      }),
    },
    {
      name: 'one replica, SQLite said to be shared (nothing to share with)',
      manifest: manifest({
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: sqlite, durable: true, sharedAcrossReplicas: true } }'),
      }),
    },
    {
      name: 'replicas serving a read',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 3 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: memory } }', 'none'),
      }),
    },
  ],
  invalid: [
    {
      name: 'replicas with local SQLite',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 3 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: sqlite, sharedAcrossReplicas: false } }'),
      }),
      findings: [{ path: '/operations/0/idempotency/ledger/sharedAcrossReplicas', line: 8 }],
    },
    {
      name: 'replicas with an in-memory ledger that claims to be shared',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 2 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: memory, sharedAcrossReplicas: true } }'),
      }),
      findings: [{ path: '/operations/0/idempotency/ledger/store', line: 8, messageId: 'in-memory' }],
    },
    {
      name: 'replicas declared sharing one SQLite file: a file on one host is not shared storage',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 3 }',
        operations: mutation(
          '    idempotency: { keyArgument: key, ledger: { store: sqlite, durable: true, sharedAcrossReplicas: true, atomicWithEffect: true } }',
        ),
      }),
      findings: [{ path: '/operations/0/idempotency/ledger/store', line: 8, messageId: 'host-local', severity: 'error' }],
    },
    {
      name: 'replicas with a database not declared shared',
      manifest: manifest({
        server: '{ name: s, transports: [stdio], replicas: 2 }',
        operations: mutation('    idempotency: { keyArgument: key, ledger: { store: postgres, durable: true } }'),
      }),
      findings: [{ path: '/operations/0/idempotency/ledger/sharedAcrossReplicas', line: 8, messageId: 'not-shared' }],
    },
  ],
});

ruleTester('idem-atomic-boundary', {
  valid: [
    {
      name: 'atomic',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { atomicWithEffect: true } }') }),
    },
    {
      name: 'the upstream that enforces the key commits key and effect itself',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { store: upstream } }') }),
    },
    {
      name: 'a keyed read',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { atomicWithEffect: false } }', 'none') }),
    },
  ],
  invalid: [
    {
      name: 'separate steps',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, ledger: { atomicWithEffect: false } }') }),
      findings: [{ path: '/operations/0/idempotency/ledger/atomicWithEffect', line: 8 }],
    },
  ],
});

ruleTester('idem-external-effect', {
  valid: [
    {
      name: 'outbox',
      manifest: manifest({
        operations: mutation('    idempotency: { keyArgument: key, effect: { kind: external-api, boundary: outbox } }'),
      }),
    },
    {
      name: 'local record',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, effect: { kind: local-record, boundary: none } }') }),
    },
    {
      name: 'upstream key',
      manifest: manifest({
        operations: mutation('    idempotency: { keyArgument: key, effect: { kind: external-api, boundary: upstream-key } }'),
      }),
    },
    {
      name: 'a read of an external API',
      manifest: manifest({ operations: mutation('    idempotency: { effect: { kind: external-api } }', 'none') }),
    },
  ],
  invalid: [
    {
      name: 'external call outside',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, effect: { kind: external-api } }') }),
      findings: [{ path: '/operations/0/idempotency/effect/boundary', line: 8 }],
    },
  ],
});

ruleTester('idem-defensive-copy', {
  valid: [
    { name: 'copies', manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, returns: defensive-copy }') }) },
  ],
  invalid: [
    {
      name: 'aliases storage',
      manifest: manifest({ operations: mutation('    idempotency: { keyArgument: key, returns: shared-reference }') }),
      findings: [{ path: '/operations/0/idempotency/returns', line: 8 }],
    },
  ],
});
