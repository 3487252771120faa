import type { Backoff } from '../../manifest/types.js';
import { retriesAutomatically, retryClassOf } from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { ChecklistLine, RetrySection } from '../review-types.js';
import { plural } from '../../text/plural.js';

const CALLER = {
  SAFE: 'and may simply re-issue it',
  CONDITIONAL: 'reconciling by key first',
  UNSAFE: 'reconciling before anything is sent again',
} as const;

/** The retry classification from the contract, and what the client does about it. */
export function retry(context: ReviewContext): RetrySection {
  const { operation, checklist } = context;
  const classified = retryClassOf(operation);
  const declared = operation.retry ?? {};
  const lines: ChecklistLine[] = [
    checklist.line(
      operation.sideEffect === undefined
        ? 'side effect not declared: reviewed as a mutation'
        : `side effect ${operation.sideEffect}, by contract (annotations are hints)`,
      ['retry-side-effect-declared', 'retry-hints-not-contracts'],
    ),
  ];
  if (!retriesAutomatically(operation)) {
    lines.push(
      checklist.line(
        `no automatic retry${declared.automatic === undefined ? ' (not declared)' : ''}: the caller decides, ${CALLER[classified.classification]}`,
        ['retry-mutation-needs-key'],
      ),
    );
    return { classification: classified.classification, reason: classified.reason, lines };
  }
  const how = [
    `retried automatically ${declared.automatic!.replace(/^on-/, 'on ').replace(/-or-/, ' or ').replace(/-/g, ' ')}` +
      (declared.maxAttempts === undefined ? '' : `, up to ${plural(declared.maxAttempts, 'attempt')}`),
    declared.newRequestId === false ? 'with the same JSON-RPC id' : 'each attempt a new JSON-RPC id',
    classified.classification === 'CONDITIONAL'
      ? `with the same key${declared.reconcileFirst === true ? ', after looking the key up' : ''}`
      : classified.classification === 'UNSAFE'
        ? 'without an idempotency key'
        : '',
  ].filter((part) => part !== '');
  lines.push(checklist.line(how.join(', '), ['retry-mutation-needs-key', 'retry-reconcile-first', 'retry-new-request-id']));
  lines.push(checklist.line(`backoff: ${describeBackoff(declared.backoff)}`, ['retry-backoff']));
  return { classification: classified.classification, reason: classified.reason, lines };
}

export function describeBackoff(backoff: Backoff | undefined): string {
  if (backoff === undefined) return 'none declared (every attempt at once)';
  return `base ${backoff.baseMs ?? 'not declared'} ms, cap ${backoff.capMs === undefined ? 'none' : `${backoff.capMs} ms`}, jitter ${backoff.jitter ?? 'none'}`;
}
