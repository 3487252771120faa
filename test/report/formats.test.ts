import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../../src/report/github.js';
import { formatJson } from '../../src/report/json.js';
import { formatJunit } from '../../src/report/junit.js';
import { formatMarkdown } from '../../src/report/markdown.js';
import { formatSarif } from '../../src/report/sarif.js';
import { formatStylish } from '../../src/report/stylish.js';
import { INPUT_RULE_IDS } from '../../src/findings/input-rules.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { reportableRules } from '../../src/rules/rule-descriptors.js';
import { sampleResult } from '../helpers/sample-result.js';

const result = sampleResult();
const rules = reportableRules(bundledRules());
const context = { toolVersion: '9.9.9', rules, color: false };

describe('sample result', () => {
  it('holds every kind of finding the formats must carry', () => {
    const findings = result.files.flatMap((file) => file.findings);
    expect(new Set(findings.map((finding) => finding.severity))).toEqual(new Set(['error', 'warn', 'info']));
    expect(findings.some((finding) => finding.suppression !== undefined)).toBe(true);
    expect(findings.some((finding) => finding.range === undefined)).toBe(true);
    expect(result.summary.inputErrors).toBe(2);
  });
});

describe('sarif', () => {
  const sarif = JSON.parse(formatSarif(result, context));

  it('is valid against the official SARIF 2.1.0 schema', () => {
    const schema = JSON.parse(readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8'));
    // ajv-draft-04 is CommonJS with a default export: under NodeNext the class is its .default.
    type AjvClass = new (
      options: Record<string, unknown>,
    ) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null } };
    const AjvDraft04 = (AjvDraft04Module as unknown as { default: AjvClass }).default;
    const ajv = new AjvDraft04({ unicodeRegExp: false, validateFormats: false, allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('lists every rule with help text, a URI only where the rule has a page, and points each result at its rule', () => {
    const driverRules = sarif.runs[0].tool.driver.rules as { id: string; help: { text: string }; helpUri?: string }[];
    expect(driverRules.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.id));
    expect(driverRules.slice(0, 4).map((rule) => rule.id)).toEqual(['manifest-file', 'manifest-syntax', 'manifest-schema', 'fixture-file']);
    for (const rule of driverRules) {
      expect(rule.help.text.length).toBeGreaterThan(20);
      if (INPUT_RULE_IDS.has(rule.id)) expect(rule.helpUri).toBeUndefined();
      else {
        expect(rule.helpUri).toBe(`https://github.com/mcprely/mcprely/blob/main/docs/rules/${rule.id}.md`);
        expect(existsSync(`docs/rules/${rule.id}.md`), rule.id).toBe(true);
      }
    }
    const results = sarif.runs[0].results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
      suppressions?: unknown[];
    }[];
    expect(results.length).toBe(result.files.reduce((sum, file) => sum + file.findings.length, 0));
    for (const entry of results) expect(driverRules[entry.ruleIndex]!.id).toBe(entry.ruleId);
    expect(new Set(results.map((entry) => entry.level))).toEqual(new Set(['error', 'warning', 'note']));
    expect(results.filter((entry) => entry.suppressions !== undefined)).toHaveLength(1);
    expect(
      results.some((entry) => entry.locations[0]!.physicalLocation.artifactLocation.uri === 'services/tricky%20name%3Aa%2C100%25.yaml'),
    ).toBe(true);
  });
});

describe('json', () => {
  it('matches its documented schema and counts suppressed findings apart', () => {
    const report = JSON.parse(formatJson(result, context));
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
      JSON.parse(readFileSync('schemas/report.schema.json', 'utf8')),
    );
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toEqual(result.summary);
    expect(report.summary.suppressed).toBe(1);
  });
});

describe('github', () => {
  it('escapes data and properties as the runner requires', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
  });

  it('writes one annotation per unsuppressed finding, with severity and place', () => {
    const lines = formatGithub(result).trimEnd().split('\n');
    const unsuppressed = result.summary.errors + result.summary.warnings + result.summary.infos;
    expect(lines).toHaveLength(unsuppressed);
    expect(
      lines.every((line) =>
        /^::(error|warning|notice) file=[^,]+(,line=\d+,col=\d+,endLine=\d+,endColumn=\d+)?,title=mcprely [a-z-]+::\S/.test(line),
      ),
    ).toBe(true);
    expect(lines).toContain('::error file=missing.yaml,title=mcprely manifest-file::No file exists at this path. check the path');
    expect(lines.some((line) => line.startsWith('::warning file=services/tricky name%3Aa%2C100%25.yaml,line='))).toBe(true);
  });
});

describe('junit', () => {
  it('is well-formed XML with a suite per file and a case per finding', () => {
    const xml = formatJunit(result);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = parsed.testsuites.testsuite as { name: string; tests: string; failures: string; errors: string }[];
    expect(suites.map((suite) => suite.name)).toEqual(result.files.map((file) => file.file));
    expect(suites[0]).toMatchObject({ tests: '1', failures: '0', errors: '0' });
    expect(suites[3]).toMatchObject({ failures: '0', errors: '1' });
    expect(xml).toContain('&quot;');
  });
});

describe('markdown', () => {
  it('is a pull-request comment whose table survives pipes in messages', () => {
    const markdown = formatMarkdown(result);
    expect(markdown.split('\n')[0]).toMatch(/^### mcprely: \d+ errors, \d+ warnings?, \d+ infos? in 5 files$/);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| 🔴') || line.startsWith('| 🟡') || line.startsWith('| 🔵'));
    expect(rows).toHaveLength(result.summary.errors + result.summary.warnings + result.summary.infos);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(6);
    expect(markdown).toContain('[`flow-sse-headers`](https://github.com/mcprely/mcprely/blob/main/docs/rules/flow-sse-headers.md)');
  });
});

describe('stylish', () => {
  it('colours only when asked', () => {
    expect(formatStylish(result, { color: false })).not.toContain('\u001b[');
    expect(formatStylish(result, { color: true })).toContain('\u001b[31merror\u001b[0m');
  });
});
