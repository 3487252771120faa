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
