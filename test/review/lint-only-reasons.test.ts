import { describe, expect, it } from 'vitest';
import { lintOnlyReasonOf, UNSET_VALUE } from '../../src/findings/rule-verification.js';
import { lintLoadedManifest } from '../../src/lint/lint-file.js';
import { loadManifest } from '../../src/manifest/load.js';
import { buildReview } from '../../src/review/build-review.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { runScript } from '../../src/simulator/run-fixture.js';

const ALWAYS = 'the reference implementation never reads this field, so no fixture can show it.';
const UNSET = 'the defect is the missing claim, and what the server then does is not the manifest’s to say.';

describe('which findings are lint-only', () => {
  const verifications = new Map([
    ['always-rule', { lintOnly: ALWAYS }],
    ['unset-rule', { whenUnset: UNSET }],
  ]);
  it.each([
    ['a rule lint-only for every finding', 'always-rule', 'error-response', ALWAYS],
    ['a rule lint-only for unset fields, on an unset field', 'unset-rule', UNSET_VALUE, UNSET],
    ['a rule lint-only for unset fields, on a value the manifest sets', 'unset-rule', 'error-response', undefined],
    ['a rule with no verification', 'other-rule', UNSET_VALUE, undefined],
  ])('%s', (_, ruleId, value, reason) => {
    expect(lintOnlyReasonOf({ ruleId, data: { value } }, verifications)).toBe(reason);
  });
});

describe('the review shows a whenUnset reason for a finding on an unset field, and only for it', () => {
  const ruleSet = bundledRules();
  const severities = new Map(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
  const reviewOf = (invalidOrLate: string | undefined) => {
    const cancellation =
      invalidOrLate === undefined ? '{ stopsWork: immediately }' : `{ stopsWork: immediately, invalidOrLate: ${invalidOrLate} }`;
    const text = [
      'mcprely: 1',
      'specVersion: "2026-07-28"',
      'server: { name: s, transports: [stdio] }',
      'operations:',
      '  - name: search',
      '    method: tools/call',
      '    sideEffect: none',
      `    cancellation: ${cancellation}`,
    ].join('\n');
    const loaded = loadManifest('m.yaml', new TextEncoder().encode(text));
    if (!loaded.ok) throw new Error('the manifest should load');
    const findings = lintLoadedManifest(loaded, { ruleSet, severities }).filter((finding) => finding.ruleId === 'cancel-invalid-ignored');
    expect(findings).toHaveLength(1);
    const review = buildReview(loaded, findings, [], runScript, new Map([['cancel-invalid-ignored', { whenUnset: UNSET }]]));
    return review.operations[0]!.lintOnly;
  };
  it('unset: lint-only, with the reason', () => {
    expect(reviewOf(undefined)).toEqual([{ rule: 'cancel-invalid-ignored', reason: UNSET }]);
  });
  it('set to the refused value: not lint-only (a fixture must show it)', () => {
    expect(reviewOf('error-response')).toEqual([]);
  });
});
