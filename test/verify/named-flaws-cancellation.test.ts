import { describe, expect, it } from 'vitest';
import { schemaVariants } from '../helpers/schema-variants.js';
import { outcomeOf } from '../helpers/variant-outcomes.js';

/** The billing example with one field set (`path` through operations by name, or defaults); `undefined` removes it. */
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

// Issue 47's cancellation flaws, each with the fixture that must fail for it and the rule lint reports.
const FLAWS: readonly { flaw: string; path: readonly (string | number)[]; value: unknown; fails: string; rule: string }[] = [
  {
    flaw: 'server-sent notifications/cancelled for a tool call',
    path: [...operation('charge_account'), 'cancellation', 'serverSendsCancelled'],
    value: true,
    fails: 'charge_account/server-ends-request',
    rule: 'cancel-server-sent',
  },
  {
    flaw: "a Task's handler that never checks for cancellation",
    path: [...operation('reindex_ledger'), 'cancellation', 'handler'],
    value: 'never-checks',
    fails: 'reindex_ledger/task-cancel-races-result',
    rule: 'cancel-handler-checks',
  },
  {
    flaw: 'a read whose response still goes out after its cancellation',
    path: [...operation('get_balance'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'get_balance/cancel-races-computed-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: "a cancelled Task whose work's result is still handed out",
    path: [...operation('reindex_ledger'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'reindex_ledger/task-cancel-races-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: "a subscription's final result after the client closed it",
    path: [...operation('watch_accounts'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'watch_accounts/cancel-races-computed-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: 'a late cancellation of a subscription answered with an error',
    path: [...operation('watch_accounts'), 'cancellation', 'invalidOrLate'],
    value: 'error-response',
    fails: 'watch_accounts/server-ends-request',
    rule: 'cancel-invalid-ignored',
  },
  {
    flaw: 'server-sent notifications/cancelled on a subscription over Streamable HTTP',
    path: [...operation('watch_accounts'), 'transports'],
    value: ['streamable-http'],
    fails: 'watch_accounts/server-ends-request',
    rule: 'cancel-server-sent',
  },
  {
    flaw: 'a disconnect the policy does not say is a cancellation (2026-07-28)',
    path: ['defaults', 'cancellation', 'disconnectIsCancellation'],
    value: undefined,
    fails: 'charge_account/http-cancel-before-completion',
    rule: 'cancel-disconnect-semantics',
  },
  {
    flaw: 'single JSON responses on 2026-07-28 (progress lost, a closed stream not seen)',
    path: ['server', 'http', 'responseMode'],
    value: 'json',
    fails: 'get_balance/http-cancel-before-completion',
    rule: 'cancel-json-response',
  },
];

describe('each cancellation flaw of issue 47 fails a named fixture, and lint reports it', () => {
  it.each(FLAWS)('$flaw fails $fails', async ({ path, value, fails, rule }) => {
    const outcome = await outcomeOf(billingWith(path, value));
    expect(outcome.failures.map((failure) => failure.id)).toContain(fails);
    expect([...outcome.errors, ...outcome.warnings]).toContain(rule);
  });
});
