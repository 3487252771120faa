import { namedFlawsSuite, opPath, type NamedFlaw } from '../helpers/named-flaws.js';

// Issue 47's named example of the recovery area, and its siblings on the other methods that can lose a stream:
// each fails a named fixture, and lint reports the rule.
const FLAWS: readonly NamedFlaw[] = [
  {
    flaw: 'a read that resumes a dropped stream with Last-Event-ID on 2026-07-28',
    path: [...opPath('get_balance'), 'recovery', 'reconnect', 'sendLastEventId'],
    value: true,
    fails: 'get_balance/stream-drop-reissue',
    rule: 'recovery-no-last-event-id',
  },
  {
    flaw: 'a read re-issued with its old id after a drop',
    path: [...opPath('get_balance'), 'recovery', 'reconnect', 'newRequestId'],
    value: false,
    fails: 'get_balance/stream-drop-reissue',
    rule: 'recovery-new-request-id',
  },
  {
    flaw: "a Task's creating request re-issued with its old id after a drop",
    path: [...opPath('reindex_ledger'), 'recovery', 'reconnect', 'newRequestId'],
    value: false,
    fails: 'reindex_ledger/stream-drop-reissue',
    rule: 'recovery-new-request-id',
  },
  {
    flaw: 'a keyed mutation silent about a key reused with other arguments',
    path: [...opPath('charge_account'), 'idempotency', 'onKeyReuseWithOtherArguments'],
    value: undefined,
    fails: 'charge_account/key-reuse-changed-arguments',
    rule: 'idem-key-reuse-rejected',
  },
  {
    flaw: 'a keyed mutation silent about how it returns stored results',
    path: [...opPath('charge_account'), 'idempotency', 'returns'],
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
    path: [...opPath('get_balance'), 'retry', 'backoff', 'baseMs'],
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

namedFlawsSuite('each recovery flaw the issue names fails a named fixture, and lint reports it', FLAWS);
