import { namedFlawsSuite, opPath, type NamedFlaw } from '../helpers/named-flaws.js';

// Issue 47's named examples of the progress and deadline area, and the degenerate values it asks lint to refuse:
// each fails the named fixture, and lint reports the rule.
const FLAWS: readonly NamedFlaw[] = [
  {
    flaw: 'progress that may repeat or go back (charge_account)',
    file: 'billing.yaml',
    path: [...opPath('charge_account'), 'progress', 'monotonic'],
    value: false,
    fails: 'charge_account/progress-values-increase',
    rule: 'progress-monotonic',
  },
  {
    flaw: "a Task's progress that goes on after its cancellation (reindex_ledger)",
    file: 'billing.yaml',
    path: [...opPath('reindex_ledger'), 'progress', 'stopsOnCancellation'],
    value: false,
    fails: 'reindex_ledger/task-progress-stops-at-terminal',
    rule: 'progress-stops',
  },
  {
    flaw: "a Task's progress that goes on after it completed (reindex_ledger, 2025-11-25)",
    file: 'billing-2025.yaml',
    path: [...opPath('reindex_ledger'), 'progress', 'stopsOnCompletion'],
    value: false,
    fails: 'reindex_ledger/task-progress-stops-at-terminal',
    rule: 'progress-stops',
  },
  {
    flaw: "a Task's progress that may repeat (reindex_ledger)",
    file: 'billing.yaml',
    path: [...opPath('reindex_ledger'), 'progress', 'monotonic'],
    value: false,
    fails: 'reindex_ledger/task-progress-stops-at-terminal',
    rule: 'progress-monotonic',
  },
  {
    flaw: 'progress on the subscriptions/listen stream (2026-07-28 HTTP)',
    file: 'billing.yaml',
    path: [...opPath('charge_account'), 'progress', 'httpStream'],
    value: 'listen',
    fails: 'charge_account/progress-on-request-stream',
    rule: 'progress-on-request-stream',
  },
  {
    flaw: 'an idle timeout equal to the maximum (inherited 30000 = 30000)',
    file: 'inventory.yaml',
    path: [...opPath('reserve_inventory', 'inventory.yaml'), 'timeouts', 'idleMs'],
    value: undefined,
    fails: 'reserve_inventory/idle-timeout-fires-on-silence',
    rule: 'deadline-max-at-least-idle',
  },
  {
    flaw: 'an idle timeout of 1 ms, below a round trip',
    file: 'billing.yaml',
    path: [...opPath('get_balance'), 'timeouts', 'idleMs'],
    value: 1,
    fails: 'get_balance/answer-within-one-round-trip',
    rule: 'deadline-idle-required',
  },
  {
    flaw: 'a maximum timeout of 5 ms, below a round trip',
    file: 'billing.yaml',
    path: [...opPath('get_balance'), 'timeouts', 'maxMs'],
    value: 5,
    fails: 'get_balance/answer-within-one-round-trip',
    rule: 'deadline-max-required',
  },
  {
    flaw: 'progress that may stay silent far longer than the idle timeout',
    file: 'billing.yaml',
    path: [...opPath('charge_account'), 'progress', 'maxIntervalMs'],
    value: 500_000,
    fails: 'charge_account/progress-at-slowest-pace',
    rule: 'progress-interval-below-idle',
  },
];

namedFlawsSuite('each named progress and deadline flaw fails a named fixture, and lint reports it', FLAWS);
