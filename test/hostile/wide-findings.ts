import { describe, expect, it } from 'vitest';
import type { Severity } from '../../src/findings/finding.js';
import { lintFile } from '../../src/lint/lint-file.js';
import { lintResult } from '../../src/lint/lint-result.js';
import { FORMATTERS } from '../../src/report/formats.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { reportableRules } from '../../src/rules/rule-descriptors.js';
import { BASE } from './hostile-inputs.js';

/**
 * 150 000 findings through each of `formats`: no stack overflow. npm test runs the default format
 * (deep-and-wide.test.ts), npm run test:live every format (wide-findings.test.ts).
 */
export function wideFindings(formats: readonly (keyof typeof FORMATTERS)[]): void {
  const ruleSet = bundledRules();
  const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
  const rules = reportableRules(ruleSet);
  describe('150 000 findings: no stack overflow in the format', () => {
    let keys = '';
    for (let index = 0; index < 150_000; index++) keys += `k${index.toString(36)}: 1\n`;
    const report = lintFile('wide.yaml', new TextEncoder().encode(`${BASE}${keys}`), { ruleSet, severities });
    const result = lintResult([report]);

    it.each(formats)('%s', (format) => {
      expect(report.findings.length).toBeGreaterThanOrEqual(150_000);
      const text = FORMATTERS[format](result, { toolVersion: '0', rules, color: false });
      expect(text.length).toBeGreaterThan(150_000);
    });
  });
}
