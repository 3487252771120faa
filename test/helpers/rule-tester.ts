import { describe, expect, it } from 'vitest';
import { bundledRules } from '../../src/rules/load-rules.js';
import { lintText } from './lint-text.js';

export interface InvalidCase {
  readonly name: string;
  readonly manifest: string;
  /** Each expected finding of the rule: JSON Pointer, 1-based line, and optionally its messageId. */
  readonly findings: readonly { readonly path: string; readonly line: number; readonly messageId?: string; readonly severity?: string }[];
}

export interface ValidCase {
  readonly name: string;
  readonly manifest: string;
}

/**
 * ESLint's RuleTester for mcprely: runs one rule on each case and compares its findings exactly.
 * Refuses a malformed table: a repeated case, or a messageId the rule does not have.
 */
export function ruleTester(ruleId: string, cases: { valid: readonly ValidCase[]; invalid: readonly InvalidCase[] }): void {
  const rule = bundledRules().byId.get(ruleId);
  const messageIds = new Set(
    rule?.definition.checks === undefined ? ['default'] : rule.definition.checks.map((check, index) => check.id ?? `check-${index + 1}`),
  );
  describe(ruleId, () => {
    it('exists, and the table is well formed', () => {
      expect(rule, `no rule ${ruleId}`).toBeDefined();
      const texts = [...cases.valid, ...cases.invalid].map((testCase) => testCase.manifest);
      expect(new Set(texts).size, 'a case is repeated').toBe(texts.length);
      for (const invalid of cases.invalid) {
        expect(invalid.findings.length, `${invalid.name} expects no finding: make it a valid case`).toBeGreaterThan(0);
        for (const finding of invalid.findings)
          if (finding.messageId !== undefined) expect(messageIds, `${invalid.name}`).toContain(finding.messageId);
      }
    });
    it.each(cases.valid.map((testCase) => [testCase.name, testCase] as const))('valid: %s', (_, testCase) => {
      expect(lintText(testCase.manifest, [ruleId])).toEqual([]);
    });
    it.each(cases.invalid.map((testCase) => [testCase.name, testCase] as const))('invalid: %s', (_, testCase) => {
      const found = lintText(testCase.manifest, [ruleId]);
      expect(
        found.every((finding) => finding.ruleId === ruleId),
        JSON.stringify(found),
      ).toBe(true);
      const actual = found.map((finding) => ({
        path: finding.path,
        line: finding.range?.start.line,
        ...(testCase.findings.some((expected) => expected.messageId !== undefined) ? { messageId: finding.messageId } : {}),
        ...(testCase.findings.some((expected) => expected.severity !== undefined) ? { severity: finding.severity } : {}),
      }));
      expect(actual).toEqual(testCase.findings);
    });
  });
}
