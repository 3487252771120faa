import { describe, expect, it } from 'vitest';
import { schemaVariants } from '../helpers/schema-variants.js';
import { outcomeOf } from '../helpers/variant-outcomes.js';

/** The billing example with one field set, or removed when `value` is undefined (`path` through operations by name, or defaults). */
function billingWith(path: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const manifest = structuredClone(schemaVariants.original('fixtures/examples/billing.yaml'));
  let node = manifest as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string | number, unknown>;
  }
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return manifest;
}

const operation = (name: string) => {
  const names = ['charge_account', 'get_balance', 'reindex_ledger', 'watch_accounts'];
  return ['operations', names.indexOf(name)] as const;
};

// Issue 47's named example of the recovery area, and its siblings on the other methods that can lose a stream:
// each fails a named fixture, and lint reports the rule.
const FLAWS: readonly { flaw: string; path: readonly (string | number)[]; value: unknown; fails: string; rule: string }[] = [
  {
    flaw: 'a read that resumes a dropped stream with Last-Event-ID on 2026-07-28',
    path: [...operation('get_balance'), 'recovery', 'reconnect', 'sendLastEventId'],
    value: true,
    fails: 'get_balance/stream-drop-reissue',
    rule: 'recovery-no-last-event-id',
  },
  {
    flaw: 'a read re-issued with its old id after a drop',
    path: [...operation('get_balance'), 'recovery', 'reconnect', 'newRequestId'],
    value: false,
    fails: 'get_balance/stream-drop-reissue',
    rule: 'recovery-new-request-id',
  },
  {
    flaw: "a Task's creating request re-issued with its old id after a drop",
    path: [...operation('reindex_ledger'), 'recovery', 'reconnect', 'newRequestId'],
    value: false,
    fails: 'reindex_ledger/stream-drop-reissue',
    rule: 'recovery-new-request-id',
  },
  {
    flaw: 'a keyed mutation silent about a key reused with other arguments',
    path: [...operation('charge_account'), 'idempotency', 'onKeyReuseWithOtherArguments'],
    value: undefined,
    fails: 'charge_account/key-reuse-changed-arguments',
    rule: 'idem-key-reuse-rejected',
  },
  {
    flaw: 'a keyed mutation silent about how it returns stored results',
    path: [...operation('charge_account'), 'idempotency', 'returns'],
    value: undefined,
    fails: 'charge_account/caller-mutates-result-clean-replay',
    rule: 'idem-defensive-copy',
  },
  {
    flaw: 'a progress buffer with no overflow policy',
    path: ['defaults', 'flowControl', 'progressBuffer', 'overflow'],
    value: undefined,
    fails: 'charge_account/slow-consumer-overflows-buffer',
    rule: 'flow-drop-oldest',
  },
  {
    flaw: 'a retry backoff that starts at 1 ms',
    path: [...operation('get_balance'), 'retry', 'backoff', 'baseMs'],
    value: 1,
    fails: 'get_balance/retry-herd-backoff',
    rule: 'retry-backoff',
  },
  {
    flaw: 'a reconnect backoff that starts at 5 ms',
    path: ['defaults', 'recovery', 'reconnect', 'backoff', 'baseMs'],
    value: 5,
    fails: 'get_balance/reconnect-herd-backoff',
    rule: 'recovery-backoff',
  },
];

describe('each recovery flaw the issue names fails a named fixture, and lint reports it', () => {
  it.each(FLAWS)('$flaw fails $fails', async ({ path, value, fails, rule }) => {
    const outcome = await outcomeOf(billingWith(path, value));
    expect(outcome.failures.map((failure) => failure.id)).toContain(fails);
    expect([...outcome.errors, ...outcome.warnings]).toContain(rule);
  });
});
