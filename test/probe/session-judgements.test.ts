import { describe, expect, it } from 'vitest';
import type { Judgement } from '../../src/judges/judgement.js';
import type { CheckResult } from '../../src/probe/probe-types.js';
import { foldJudgements, KEPT_CASES, reportedJudgement } from '../../src/probe/session-judgements.js';

const check = (id: string, status: CheckResult['status'], summary = `${id} ${status}`): CheckResult => ({
  id,
  title: id,
  basis: '',
  status,
  summary,
  details: [],
  transcript: [],
  durationMs: 0,
});

const failing = (judge: string, cases: readonly (readonly number[])[]): Judgement => ({
  judge,
  party: 'server',
  status: 'fail',
  summary: 'failed',
  rests: { fact: 'receiver-stops' },
  cases: cases.map((lines, index) => ({ status: 'fail', message: `case ${index + 1}`, lines })),
});

// Trace lines and the checks they are about: 10 and 11 the cancel check's request, 20 the progress check's.
const OWNERS = new Map([
  [10, 'cancel-before-completion'],
  [11, 'cancel-before-completion'],
  [20, 'progress'],
]);
const ownerOf = (line: number) => OWNERS.get(line);
const fixOf = (id: string) => `fix of ${id}`;

describe('the session judges folded into the probe checks (one verdict per rule)', () => {
  it('a judge failing on a request of a check that asserts its rule fails that check, with the judge named', () => {
    const results = [check('progress', 'pass'), check('cancel-before-completion', 'pass')];
    const folded = foldJudgements(results, [failing('server-silent-after-cancel', [[11, 10]])], ownerOf, fixOf);
    expect(folded[0]).toEqual(results[0]);
    expect(folded[1]).toMatchObject({
      status: 'fail',
      summary: 'judged on the session: case 1 (judge server-silent-after-cancel, session message 11)',
      details: ['before that, the check had found: cancel-before-completion pass'],
      fix: 'fix of cancel-before-completion',
    });
  });

  it('a check that does not assert the rule is left alone: the judge stands on its own', () => {
    // Progress going backwards in the cancel check's request is the progress rule, not the cancellation's.
    const results = [check('progress', 'pass'), check('cancel-before-completion', 'pass')];
    expect(foldJudgements(results, [failing('server-progress-increases', [[10]])], ownerOf, fixOf)).toEqual(results);
    // A message about no request of the probe (an unknown token) has no owner: no check is failed for it.
    expect(foldJudgements(results, [failing('server-progress-for-active-requests', [[99]])], ownerOf, fixOf)).toEqual(results);
  });

  it('a check that failed keeps its own reason; the judge adds what it saw; passing judges change nothing', () => {
    const results = [check('progress', 'fail', 'progress 2 follows 3')];
    const folded = foldJudgements(results, [failing('server-progress-increases', [[20]])], ownerOf, fixOf);
    expect(folded[0]).toMatchObject({
      status: 'fail',
      summary: 'progress 2 follows 3',
      details: ['also judged: case 1 (judge server-progress-increases, session message 20)'],
    });
    const passed: Judgement = { ...failing('server-progress-increases', [[20]]), status: 'pass', cases: [] };
    expect(foldJudgements([check('progress', 'pass')], [passed], ownerOf, fixOf)).toEqual([check('progress', 'pass')]);
  });

  it('keeps a bounded number of cases, counting the rest (a flood of late progress stays a few lines)', () => {
    const many = failing(
      'server-silent-after-cancel',
      Array.from({ length: 5000 }, () => [10]),
    );
    const [folded] = foldJudgements([check('cancel-before-completion', 'pass')], [many], ownerOf, fixOf);
    expect(folded?.details).toHaveLength(KEPT_CASES + 1);
    expect(folded?.details.at(-2)).toBe(`and ${5000 - KEPT_CASES} more such case(s)`);
    const reported = reportedJudgement(many);
    expect(reported.cases).toHaveLength(KEPT_CASES);
    expect(reported.casesLeftOut).toBe(5000 - KEPT_CASES);
    expect(reportedJudgement(failing('server-silent-after-cancel', [[10]]))).not.toHaveProperty('casesLeftOut');
  });
});
