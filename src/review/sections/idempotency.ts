import {
  externalEffectIsProtected,
  isMutation,
  ledgerIsAtomic,
  ledgerIsDurable,
  ledgerIsShared,
  ledgerIsUpstream,
} from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { IdempotencySection } from '../review-types.js';

const REUSE = { reject: 'rejected', replay: 'answered with the stored result', execute: 'executed again' } as const;
const RETURNS = {
  'defensive-copy': 'rebuilt from stored JSON (defensive copies)',
  'shared-reference': 'the stored object itself (aliased)',
  undeclared: 'not declared',
} as const;

/** What commits atomically with the key, and what does not; the ledger and the results. */
export function idempotencyBoundary(context: ReviewContext): IdempotencySection {
  const { operation, checklist } = context;
  const replicas = context.server.replicas ?? 1;
  const idempotency = operation.idempotency;
  if (!isMutation(operation)) {
    return {
      inside: [],
      outside: [],
      lines: [checklist.line(`no mutation (side effect: ${operation.sideEffect ?? 'not declared'}): no idempotency boundary needed`, [])],
    };
  }
  const key = idempotency?.keyArgument;
  if (key === undefined) {
    return {
      inside: [],
      outside: ['the business effect', 'any record of it'],
      lines: [checklist.line('no idempotency key: a retry with a new JSON-RPC id executes again', ['retry-mutation-needs-key'])],
    };
  }
  const ledger = idempotency?.ledger ?? {};
  const effect = idempotency?.effect ?? {};
  const inside: string[] = [];
  const outside: string[] = [];
  const atomic = ledgerIsAtomic(operation);
  const upstream = ledgerIsUpstream(operation);
  (atomic ? inside : outside).push(`key claim on ${key}`, 'fingerprint check', 'stored result');
  if (effect.kind === 'external-api') {
    if (effect.boundary === 'outbox') inside.push('outbox record of the external call (delivered after commit)');
    else if (effect.boundary === 'upstream-key') outside.push('external call (protected: the same key is passed upstream)');
    else outside.push('external call (unprotected: a crash after it and before the commit repeats it)');
  } else (atomic ? inside : outside).push('local effect record');
  const store = upstream
    ? 'held by the upstream that enforces the key'
    : `${ledger.store ?? 'store not declared'}, ${ledgerIsDurable(operation) ? 'durable' : 'not durable'}`;
  const sharing =
    replicas <= 1
      ? 'one replica'
      : ledgerIsShared(operation, replicas)
        ? `shared by ${replicas} replicas`
        : `not shared by the ${replicas} replicas`;
  const fingerprint = idempotency?.fingerprint;
  const reuse = idempotency?.onKeyReuseWithOtherArguments;
  return {
    inside,
    outside,
    lines: [
      checklist.line(
        `key ${key}, fingerprint ${fingerprint?.length ? fingerprint.join(', ') : 'none (a reused key with other arguments is not detected)'}; ` +
          `a reused key with other arguments is ${REUSE[reuse ?? 'execute']}${reuse === undefined ? ' (not declared)' : ''}`,
        ['idem-fingerprint-required', 'idem-key-reuse-rejected'],
      ),
      checklist.line(`ledger: ${store}, ${sharing}`, ['idem-ledger-durable', 'idem-ledger-shared']),
      checklist.line(
        atomic && externalEffectIsProtected(operation)
          ? 'key claim, effect and result commit together'
          : 'key claim, effect and result do not commit together',
        ['idem-atomic-boundary', 'idem-external-effect'],
      ),
      checklist.line(`results: ${RETURNS[idempotency?.returns ?? 'undeclared']}`, ['idem-defensive-copy']),
    ],
  };
}
