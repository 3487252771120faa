import { describe, expect, it } from 'vitest';
import { fastParseYaml } from '../../src/document/fast-yaml.js';
import { parseYaml, parseYamlEvents } from '../../src/document/parse-yaml.js';
import type { Severity } from '../../src/findings/finding.js';
import { lintFile } from '../../src/lint/lint-file.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { BASE } from './hostile-inputs.js';
import { wideFindings } from './wide-findings.js';

const ruleSet = bundledRules();
const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
const encode = (text: string) => new TextEncoder().encode(text);

describe('a block sequence nested 5 000 deep: refused at the place, never a stack overflow', () => {
  it.each([
    ['compact sequences (- - - a)', `${BASE}x-deep:\n  ${'- '.repeat(5000)}a\n`],
    [
      'compact mappings in sequences (- a: - a: 1)',
      `${BASE}x-deep:\n${Array.from({ length: 5000 }, (_, level) => `${'  '.repeat(level)}- a:\n`)
        .join('')
        .slice(0, 1_900_000)}`,
    ],
  ])('%s', (_name, text) => {
    const [finding, ...rest] = lintFile('deep.yaml', encode(text), { ruleSet, severities }).findings;
    expect(rest).toEqual([]);
    expect(finding?.ruleId).toMatch(/^manifest-(syntax|file)$/);
    if (finding?.ruleId === 'manifest-syntax') {
      expect(finding.message).toMatch(/nested more than 64 levels deep|malformed/);
      expect(finding.range?.start.line).toBeGreaterThan(100);
      expect(finding.range?.start.column).toBeGreaterThanOrEqual(1);
    }
  });

  it('the fast reader leaves the deep compact sequence to js-yaml, which names the depth', () => {
    const text = `${BASE}x-deep:\n  ${'- '.repeat(5000)}a\n`;
    expect(fastParseYaml(text)).toBeUndefined();
    const parsed = parseYamlEvents(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.message).toMatch(/nested more than 64 levels deep/);
  });
});

// 150 000 findings in the default format; every other format in npm run test:live (wide-findings.test.ts).
wideFindings(['stylish']);

describe('CR in a double-quoted value: valid YAML is read as YAML reads it', () => {
  const base = (value: string) => BASE.replace('  name: billing\n', `  name: ${value}\n`);
  it.each([
    ['the \\r escape', base('"bill\\ring"'), 'bill\ring'],
    ['\\r\\n escapes', base('"bill\\r\\ning"'), 'bill\r\ning'],
    ['the \\r escape in a file js-yaml reads (a tab in a comment)', `${base('"bill\\ring"')}#\t\n`, 'bill\ring'],
    ['the \\r escape in a CRLF file', base('"bill\\ring"').replace(/\n/g, '\r\n'), 'bill\ring'],
    ['a raw CR (a line break) before an indented continuation', base('"bill\r     ing"'), 'bill ing'],
    ['an escaped raw CR (a line joined)', base('"bill\\\r     ing"'), 'billing'],
  ])('%s', (_name, text, name) => {
    const report = lintFile('cr.yaml', encode(text), { ruleSet, severities });
    expect(report.findings.filter((finding) => finding.ruleId.startsWith('manifest-'))).toEqual([]);
    for (const parsed of [parseYaml(text), parseYamlEvents(text)]) {
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect((parsed.document.value as { server: { name: string } }).server.name).toBe(name);
    }
  });
});
