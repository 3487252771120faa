import { namedFlawsSuite, opPath, type NamedFlaw } from '../helpers/named-flaws.js';

// Issue 47's cancellation flaws, each with the fixture that must fail for it and the rule lint reports.
const FLAWS: readonly NamedFlaw[] = [
  {
    flaw: 'server-sent notifications/cancelled for a tool call',
    path: [...opPath('charge_account'), 'cancellation', 'serverSendsCancelled'],
    value: true,
    fails: 'charge_account/server-ends-request',
    rule: 'cancel-server-sent',
  },
  {
    flaw: "a Task's handler that never checks for cancellation",
    path: [...opPath('reindex_ledger'), 'cancellation', 'handler'],
    value: 'never-checks',
    fails: 'reindex_ledger/task-cancel-races-result',
    rule: 'cancel-handler-checks',
  },
  {
    flaw: 'a read whose response still goes out after its cancellation',
    path: [...opPath('get_balance'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'get_balance/cancel-races-computed-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: "a cancelled Task whose work's result is still handed out",
    path: [...opPath('reindex_ledger'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'reindex_ledger/task-cancel-races-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: "a subscription's final result after the client closed it",
    path: [...opPath('watch_accounts'), 'cancellation', 'suppressResponseAfterCancel'],
    value: false,
    fails: 'watch_accounts/cancel-races-computed-result',
    rule: 'cancel-suppress-response',
  },
  {
    flaw: 'a late cancellation of a subscription answered with an error',
    path: [...opPath('watch_accounts'), 'cancellation', 'invalidOrLate'],
    value: 'error-response',
    fails: 'watch_accounts/server-ends-request',
    rule: 'cancel-invalid-ignored',
  },
  {
    flaw: 'server-sent notifications/cancelled on a subscription over Streamable HTTP',
    path: [...opPath('watch_accounts'), 'transports'],
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

namedFlawsSuite('each cancellation flaw of issue 47 fails a named fixture, and lint reports it', FLAWS);
