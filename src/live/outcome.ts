/**
 * What a check saw: `pass` — the behaviour was exercised and seen right; `fail` — seen wrong; `inconclusive` —
 * not exercised (nothing was in flight, the tool finished first, a budget or a limit stopped it: the summary says
 * which, and the option that changes it); `not-observable` — the property cannot be seen on this transport and
 * revision (the summary says why, and what would show it).
 */
export type CheckStatus = 'pass' | 'fail' | 'inconclusive' | 'not-observable';

/** The statuses in the words of a summary line. */
export const STATUS_WORDS: Readonly<Record<CheckStatus, string>> = {
  pass: 'passed',
  fail: 'failed',
  inconclusive: 'inconclusive',
  'not-observable': 'not observable',
};

/** The statuses as the label of a report line. */
export const STATUS_LABELS: Readonly<Record<CheckStatus, string>> = {
  pass: 'PASS',
  fail: 'FAIL',
  inconclusive: 'INCONCLUSIVE',
  'not-observable': 'NOT OBSERVABLE',
};

/**
 * The probe checks that put a tool call in flight (progress, cancellation, timeouts, tasks, replay): a claim seen only
 * by another check (revision, headers) does not make a run exercised. Each probe check's declaration says it
 * (`putsCallInFlight`, src/probe/check-declarations); live reads the claims beneath the probe and cannot import them,
 * so this is their mirror for the claims alone, held equal to them by test/probe/probe-check-catalog.test.ts.
 */
export const REQUEST_CHECK_IDS: ReadonlySet<string> = new Set([
  'progress',
  'cancel-before-completion',
  'client-timeouts',
  'tasks',
  'idempotent-replay',
]);
