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
import { bundledRules } from '../../src/rules/load-rules.js';
import { reportableRules } from '../../src/rules/rule-descriptors.js';
import { sampleResult } from '../helpers/sample-result.js';
import { fileReport } from '../../src/lint/file-report.js';
import { lintFile } from '../../src/lint/lint-file.js';
import { lintResult } from '../../src/lint/lint-result.js';
import { makeFinding } from '../../src/findings/finding.js';
import { FINGERPRINT_KEY } from '../../src/report/sarif.js';
import type { Finding, Severity } from '../../src/findings/finding.js';
import fc from 'fast-check';

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

  it('describes the rules the results name, each once in order of first use, with the full help when no page address is known', () => {
    const driverRules = sarif.runs[0].tool.driver.rules as { id: string; help: { text: string; markdown: string }; helpUri?: string }[];
    const named = [...new Set(result.files.flatMap((file) => file.findings.map((finding) => finding.ruleId)))];
    expect(driverRules.map((rule) => rule.id)).toEqual(named);
    expect(driverRules.length).toBeLessThan(rules.length);
    expect(sarif.runs[0].tool.driver.informationUri).toBeUndefined();
    for (const rule of driverRules) {
      expect(rule.helpUri, rule.id).toBeUndefined();
      expect(rule.help.text.length).toBeGreaterThan(60);
      // The help carries the page's substance: why and the fix, for input rules as for the others.
      expect(rule.help.markdown, rule.id).toContain('**Why.**');
      expect(rule.help.markdown, rule.id).toContain('**Fix.**');
    }
    expect(driverRules.find((rule) => rule.id === 'retry-backoff')!.help.markdown).toContain('```yaml');
    expect(sarif.runs[0].automationDetails).toEqual({ id: 'mcprely/' });
    const results = sarif.runs[0].results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }[];
      suppressions?: unknown[];
      partialFingerprints: Record<string, string>;
    }[];
    expect(results.length).toBe(result.files.reduce((sum, file) => sum + file.findings.length, 0));
    for (const entry of results) expect(driverRules[entry.ruleIndex]!.id).toBe(entry.ruleId);
    expect(new Set(results.map((entry) => entry.level))).toEqual(new Set(['error', 'warning', 'note']));
    expect(results.filter((entry) => entry.suppressions !== undefined)).toHaveLength(1);
    expect(
      results.some((entry) => entry.locations[0]!.physicalLocation.artifactLocation.uri === 'services/tricky%20name%3Aa%2C100%25.yaml'),
    ).toBe(true);
    expect(results.every((entry) => entry.locations[0]!.physicalLocation.artifactLocation.uriBaseId === '%SRCROOT%')).toBe(true);
    const prints = results.map((entry) => entry.partialFingerprints[FINGERPRINT_KEY]);
    expect(new Set(prints).size).toBe(results.length);
  });

  it('writes each result as the JSON a serializer would, whatever text its message, fix and place hold', () => {
    // Results are written as text, field by field: each line must read back as the object it says, in that order.
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800', '\u0000', '/', '~', 'a', 'é', '😀'), maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    const place = fc.record({ line: fc.integer({ min: 1, max: 9 }), column: fc.integer({ min: 1, max: 9 }) });
    const fix = fc.record({ kind: fc.constant('set' as const), value: text, replacement: fc.record({ start: place, end: place, text }) });
    const finding = fc.record(
      {
        ruleId: fc.constantFrom(...rules.map((rule) => rule.id), 'not-a-rule'),
        severity: fc.constantFrom<Severity>('error', 'warn', 'info'),
        messageId: text,
        data: fc.record({ operation: text }),
        message: text,
        file: text,
        path: text.map((tail) => `/operations/3/${tail}`),
        range: fc.record({ start: place, end: place }),
        fix: text,
        autofix: fix,
        claimFix: fix,
        suggestion: fix,
        suppression: fc.record({ kind: fc.constantFrom('in-source' as const, 'baseline' as const), justification: text }),
      },
      { requiredKeys: ['ruleId', 'severity', 'messageId', 'data', 'message', 'file', 'path'] },
    );
    fc.assert(
      fc.property(fc.array(finding, { minLength: 1, maxLength: 4 }), (findings) => {
        const log = formatSarif(lintResult([fileReport('a b.yaml', findings as Finding[])]), context);
        const lines = log.split('\n').filter((line) => line.startsWith('        {"ruleId"'));
        expect(lines).toHaveLength(findings.length);
        for (const [index, line] of lines.entries()) {
          const json = line.trim().replace(/,$/, '');
          const entry = JSON.parse(json);
          expect(JSON.stringify(entry)).toBe(json);
          const source = findings[index]!;
          expect(entry.ruleId).toBe(source.ruleId);
          expect(entry.message.text).toBe(source.fix === undefined ? source.message : `${source.message}. ${source.fix}`);
          expect(Object.keys(entry)).toEqual(
            ['ruleId', 'ruleIndex', 'level', 'message', 'locations', 'partialFingerprints', 'fixes', 'suppressions'].filter(
              (key) => entry[key] !== undefined,
            ),
          );
          expect(entry.suppressions?.[0].justification).toBe(source.suppression?.justification);
          const fixes = [source.autofix, source.claimFix, source.suggestion].filter((fix) => fix !== undefined).length;
          expect(entry.fixes?.length ?? 0).toBe(fixes);
          if (source.range !== undefined) expect(entry.locations[0].physicalLocation.region.startLine).toBe(source.range.start.line);
        }
        expect(() => JSON.parse(log)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('links rule pages (helpUri) only at an absolute docs address, for every rule that has a page, input rules included', () => {
    const linked = JSON.parse(
      formatSarif(result, { ...context, ruleDocs: { base: 'https://example.test/mcprely/blob/v1/docs/rules/', absolute: true } }),
    );
    for (const rule of linked.runs[0].tool.driver.rules as { id: string; helpUri: string; help: { markdown: string } }[]) {
      expect(rule.helpUri).toBe(`https://example.test/mcprely/blob/v1/docs/rules/${rule.id}.md`);
      expect(existsSync(`docs/rules/${rule.id}.md`), rule.id).toBe(true);
      expect(rule.help.markdown).toContain(`(${rule.helpUri})`);
    }
    const relative = JSON.parse(formatSarif(result, { ...context, ruleDocs: { base: '../docs/rules/', absolute: false } }));
    expect(relative.runs[0].tool.driver.rules.some((rule: { helpUri?: string }) => rule.helpUri !== undefined)).toBe(false);
  });

  it('with helpUri the help is short (what the rule checks, the fix, the link), not the whole page; a clean run describes no rule', () => {
    const docs = { base: 'https://example.test/mcprely/blob/v1/docs/rules/', absolute: true } as const;
    const linked = JSON.parse(formatSarif(result, { ...context, ruleDocs: docs }));
    for (const rule of linked.runs[0].tool.driver.rules as { id: string; helpUri: string; help: { text: string; markdown: string } }[]) {
      const full = rules.find((candidate) => candidate.id === rule.id)!;
      expect(rule.help.markdown, rule.id).toBe(`${full.description}\n\n**Fix.** ${full.fix}\n\n[The rule's page](${rule.helpUri})`);
      expect(rule.help.text, rule.id).toContain(rule.helpUri);
      expect(rule.help.markdown.length, rule.id).toBeLessThan(2000);
    }
    expect(formatSarif(result, { ...context, ruleDocs: docs }).length).toBeLessThan(formatSarif(result, context).length);
    const clean = JSON.parse(formatSarif(lintResult([fileReport('a.yaml', [])]), context));
    expect(clean.runs[0].tool.driver.rules).toEqual([]);
    expect(clean.runs[0].results).toEqual([]);
  });

  it('names the working directory as %SRCROOT%, the category per manifest set, and absolute paths as file URIs', () => {
    const absolute = lintResult([
      fileReport('/srv/app/manifests/a.yaml', [{ ...result.files[4]!.findings[0]!, file: '/srv/app/manifests/a.yaml' }]),
      fileReport('../elsewhere/b.yaml', [{ ...result.files[4]!.findings[0]!, file: '../elsewhere/b.yaml' }]),
    ]);
    const run = JSON.parse(formatSarif(absolute, { ...context, sourceRoot: '/srv/app', category: 'mcprely/billing' })).runs[0];
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///srv/app/' } });
    expect(run.automationDetails).toEqual({ id: 'mcprely/billing/' });
    expect(run.results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'file:///srv/app/manifests/a.yaml' });
    expect(run.results[1].locations[0].physicalLocation.artifactLocation.uri).toMatch(/^file:\/\/\/.*\/elsewhere\/b\.yaml$/);
  });

  it('gives each finding the same fingerprint when the operations are reordered and lines move', () => {
    const ruleSet = bundledRules();
    const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
    const original = readFileSync('fixtures/examples/billing.yaml', 'utf8')
      .replace('sendLastEventId: false', 'sendLastEventId: true')
      .replace('minIntervalMs: 250', 'minIntervalMs: 60000');
    const [head, operations] = original.split('\noperations:\n');
    const blocks = operations!.split(/\n(?= {2}- name: )/);
    expect(blocks.length).toBeGreaterThan(2);
    const reordered = `# a comment that moves every line\n${head}\noperations:\n${[...blocks]
      .reverse()
      .map((block) => block.replace(/\n*$/, '\n'))
      .join('')}`;
    // A schema finding inside an operation is named by the operation too.
    const schemaBroken = (text: string) => text.replace('name: get_balance\n', 'name: get_balance\n    surprise: 1\n');
    for (const [a, b] of [
      [original, reordered],
      [schemaBroken(original), schemaBroken(reordered)],
    ] as const) {
      const printsOf = (text: string) => {
        const report = lintFile('billing.yaml', new TextEncoder().encode(text), { ruleSet, severities });
        const run = JSON.parse(formatSarif(lintResult([report]), context)).runs[0];
        return (
          run.results as {
            ruleId: string;
            partialFingerprints: Record<string, string>;
            locations: { physicalLocation: { region: { startLine: number } } }[];
          }[]
        ).map((entry) => ({
          ruleId: entry.ruleId,
          print: entry.partialFingerprints[FINGERPRINT_KEY],
          line: entry.locations[0]!.physicalLocation.region.startLine,
        }));
      };
      const before = printsOf(a);
      const after = printsOf(b);
      if (a === original) expect(new Set(before.map(({ ruleId }) => ruleId)).size).toBeGreaterThan(1);
      expect(before.length).toBeGreaterThan(0);
      expect(after.map(({ ruleId, print }) => `${ruleId} ${print}`).sort()).toEqual(
        before.map(({ ruleId, print }) => `${ruleId} ${print}`).sort(),
      );
      expect(after.map(({ line }) => line)).not.toEqual(before.map(({ line }) => line));
    }
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

  it('written in pieces, one file at a time, is the same text as the whole report pretty-printed', () => {
    const whole = (value: typeof result) =>
      `${JSON.stringify(
        {
          version: 1,
          tool: { name: 'mcprely', version: context.toolVersion },
          summary: value.summary,
          files: value.files.map((file) => ({ file: file.file, inputError: file.inputError, findings: file.findings })),
        },
        null,
        2,
      )}\n`;
    expect(result.files.length).toBeGreaterThan(1);
    expect(formatJson(result, context)).toBe(whole(result));
    const empty = lintResult([]);
    expect(formatJson(empty, context)).toBe(whole(empty));
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
    const markdown = formatMarkdown(result, { ...context, ruleDocs: { base: 'https://example.test/docs/rules/', absolute: true } });
    expect(markdown.split('\n')[0]).toMatch(/^### mcprely: \d+ errors, \d+ warnings?, \d+ infos? in 5 files$/);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| 🔴') || line.startsWith('| 🟡') || line.startsWith('| 🔵'));
    expect(rows).toHaveLength(result.summary.errors + result.summary.warnings + result.summary.infos);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(6);
    expect(markdown).toContain('[`flow-sse-headers`](https://example.test/docs/rules/flow-sse-headers.md)');
    expect(markdown).toContain('[`manifest-syntax`](https://example.test/docs/rules/manifest-syntax.md)');
    expect(markdown).not.toContain('mcprely/mcprely');
  });

  it('leaves rule ids unlinked when it does not know where the pages are, and links relative to the report otherwise', () => {
    expect(formatMarkdown(result, context)).not.toContain('](');
    expect(formatMarkdown(result, { ...context, ruleDocs: { base: '../node_modules/mcprely/docs/rules/', absolute: false } })).toContain(
      '[`flow-sse-headers`](../node_modules/mcprely/docs/rules/flow-sse-headers.md)',
    );
  });
});

describe('stylish', () => {
  it('is grouped by file as ESLint stylish is: the path, aligned rows, a blank line, the summary (golden)', () => {
    const at = (line: number, column: number) => ({ start: { line, column }, end: { line, column: column + 1 } });
    const finding = (file: string, ruleId: string, severity: Severity, message: string, range?: ReturnType<typeof at>, fix?: string) =>
      makeFinding({
        ruleId,
        severity,
        messageId: 'm',
        message,
        file,
        ...(range === undefined ? {} : { range }),
        ...(fix === undefined ? {} : { fix }),
      });
    const golden = lintResult([
      fileReport('services/billing.yaml', [
        finding(
          'services/billing.yaml',
          'deadline-max-required',
          'error',
          'charge has no maximum timeout',
          at(12, 7),
          'set timeouts.maxMs.',
        ),
        finding('services/billing.yaml', 'retry-backoff', 'warn', 'search retries without backoff', at(101, 5)),
        {
          ...finding('services/billing.yaml', 'retry-reconcile-first', 'error', 'hidden', at(3, 3)),
          suppression: { kind: 'baseline', justification: 'x' },
        },
      ]),
      fileReport('services/clean.yaml', []),
      fileReport('missing.yaml', [
        finding('missing.yaml', 'manifest-file', 'error', 'No file exists at this path', undefined, 'check the path'),
      ]),
      fileReport('evil\u001b[31m.yaml', [finding('evil\u001b[31m.yaml', 'deadline-long-suggests-task', 'info', 'a\nb', at(1, 1))]),
    ]);
    expect(formatStylish(golden, { color: false })).toBe(
      [
        'services/billing.yaml',
        '  12:7   error    charge has no maximum timeout. Fix: Set timeouts.maxMs  deadline-max-required',
        '  101:5  warning  search retries without backoff                          retry-backoff',
        '',
        'missing.yaml',
        '  0:0  error  No file exists at this path. Fix: Check the path  manifest-file',
        '',
        'evil\\u001b[31m.yaml',
        '  1:1  info  a\\nb  deadline-long-suggests-task',
        '',
        '✖ 4 problems (2 errors, 1 warning, 1 info)',
        '1 suppressed finding not shown.',
        '',
      ].join('\n'),
    );
    expect(formatStylish(lintResult([fileReport('a.yaml', [])]), { color: false })).toBe('No findings in 1 file.\n');
  });

  it('colours only when asked', () => {
    expect(formatStylish(result, { color: false })).not.toContain('\u001b[');
    expect(formatStylish(result, { color: true })).toContain('\u001b[31merror\u001b[0m');
  });
});

describe('the formats that do not name rules', () => {
  it('write the same report without the rule descriptors (lint does not compile the rules for them)', async () => {
    const { FORMATTERS } = await import('../../src/report/formats.js');
    const { FORMAT_NAMES, FORMATS_NAMING_RULES } = await import('../../src/report/format-names.js');
    const ruleDocs = { base: 'https://example.test/docs/rules/', absolute: true };
    for (const format of FORMAT_NAMES.filter((name) => !FORMATS_NAMING_RULES.has(name)))
      for (const extra of [{}, { ruleDocs }])
        expect(FORMATTERS[format](result, { ...context, ...extra, rules: [] }), format).toBe(
          FORMATTERS[format](result, { ...context, ...extra }),
        );
    // And the ones that do, do (else the list would be longer than it needs to be).
    for (const format of FORMATS_NAMING_RULES)
      expect(FORMATTERS[format](result, { ...context, ruleDocs, rules: [] }), format).not.toBe(
        FORMATTERS[format](result, { ...context, ruleDocs }),
      );
  });
});
