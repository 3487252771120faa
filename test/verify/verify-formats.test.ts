import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const schema = (name: string) => JSON.parse(readFileSync(`schemas/${name}`, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(schema('report.schema.json'));
const validateReport = ajv.compile(schema('verify-report.schema.json'));

interface JsonFixture {
  id: string;
  source: string;
  passed: boolean;
  expectations: { passed: boolean; detail: string }[];
  transcript: { at: number; lane: string; text: string }[];
}

const textResults = (stdout: string) =>
  [...stdout.matchAll(/^ {2}(PASS|FAIL) {2}(\S+) {2}\[(\S+)\]$/gm)]
    .map(([, status, id, transport]) => `${status} ${id} ${transport}`)
    .sort();

describe('verify --format json | junit', () => {
  it('json: matches its schema and says exactly what the text report says, fixture by fixture', () => {
    const manifest = 'fixtures/examples/flawed/no-max-timeout.yaml';
    const text = runCli(['verify', manifest]);
    const json = runCli(['verify', manifest, '--format', 'json']);
    expect(json.status).toBe(text.status);
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(validateReport(report), JSON.stringify(validateReport.errors?.slice(0, 3))).toBe(true);
    const fixtures = report.fixtures as JsonFixture[];
    expect(
      fixtures
        .map((fixture) => `${fixture.passed ? 'PASS' : 'FAIL'} ${fixture.id} ${(fixture as { transport?: string }).transport}`)
        .sort(),
    ).toEqual(textResults(text.stdout));
    expect(report.summary).toMatchObject({ fixtures: fixtures.length, failed: fixtures.filter((fixture) => !fixture.passed).length });
    const failing = fixtures.find((fixture) => fixture.id === 'export_report/progress-resets-idle-maximum-fires')!;
    expect(failing.source).toBe(manifest);
    expect(failing.expectations.some((expectation) => !expectation.passed && /never ended/.test(expectation.detail))).toBe(true);
    expect(failing.transcript.length).toBeGreaterThan(3);
  });

  it('junit: a test case per fixture with its transcript as output and its failed expectations, well-formed, to a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-verify-junit-'));
    const out = join(dir, 'verify.xml');
    const run = runCli([
      'verify',
      'fixtures/examples/flawed/no-max-timeout.yaml',
      'fixtures/examples/billing.yaml',
      '-f',
      'junit',
      '-o',
      out,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const xml = readFileSync(out, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    }).parse(xml);
    const suites = parsed.testsuites.testsuite as {
      name: string;
      tests: string;
      failures: string;
      testcase: { name: string; failure?: unknown; 'system-out': string }[];
    }[];
    expect(suites.map((suite) => suite.name)).toEqual(['fixtures/examples/flawed/no-max-timeout.yaml', 'fixtures/examples/billing.yaml']);
    const [flawed, billing] = suites;
    expect(Number(billing!.failures)).toBe(0);
    expect(billing!.testcase).toHaveLength(Number(billing!.tests));
    expect(Number(billing!.tests)).toBe(58);
    expect(Number(flawed!.failures)).toBeGreaterThan(0);
    expect(flawed!.testcase.filter((testcase) => testcase.failure !== undefined)).toHaveLength(Number(flawed!.failures));
    const failing = flawed!.testcase.find((testcase) => testcase.name.startsWith('export_report/progress-resets-idle-maximum-fires '))!;
    expect(failing.failure).toBeDefined();
    expect(failing['system-out']).toMatch(/^FAIL {2}export_report\/progress-resets-idle-maximum-fires/);
    expect(parsed.testsuites.failures).toBe(flawed!.failures);
  });

  it('junit and json: a file that cannot be used is an error case (exit 2) and the others still run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-verify-bad-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'mcprely: 1\nserver: [a\n');
    const junit = runCli(['verify', bad, 'fixtures/examples/billing.yaml', '-f', 'junit']);
    expect(junit.status).toBe(2);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    }).parse(junit.stdout);
    const broken = (parsed.testsuites.testsuite as { name: string; errors: string; testcase: { error?: { type: string } }[] }[]).find(
      (suite) => suite.name === bad,
    )!;
    expect(Number(broken.errors)).toBe(1);
    expect(broken.testcase[0]!.error!.type).toBe('manifest-syntax');
    const json = JSON.parse(runCli(['verify', bad, 'fixtures/examples/billing.yaml', '-f', 'json']).stdout);
    expect(validateReport(json)).toBe(true);
    expect(json.summary).toEqual({ fixtures: 58, passed: 58, failed: 0, unusableFiles: 1, ledgerStandIns: 7 });
    expect(json.errors[0]).toMatchObject({ ruleId: 'manifest-syntax', file: bad });
  });
});
