import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintFile } from '../../src/lint/lint-file.js';
import { lintResult } from '../../src/lint/lint-result.js';
import { FORMAT_NAMES } from '../../src/report/formats.js';
import { formatGitlab } from '../../src/report/gitlab.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import type { Severity } from '../../src/findings/finding.js';
import { sampleResult } from '../helpers/sample-result.js';
import { runCli } from '../helpers/run-cli.js';

const FLAWED = 'fixtures/examples/flawed';

function flawedResult() {
  const ruleSet = bundledRules();
  const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
  const files = readdirSync(FLAWED)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => `${FLAWED}/${name}`);
  return lintResult(files.map((file) => lintFile(file, readFileSync(file), { ruleSet, severities })));
}

/** GitLab's Code Quality issue: these fields, these types, nothing else. */
function expectGitlabIssue(issue: unknown): void {
  expect(Object.keys(issue as object).sort()).toEqual(['check_name', 'description', 'fingerprint', 'location', 'severity']);
  const entry = issue as Record<string, unknown>;
  expect(typeof entry['description']).toBe('string');
  expect((entry['description'] as string).length).toBeGreaterThan(0);
  expect(typeof entry['check_name']).toBe('string');
  expect(entry['fingerprint']).toMatch(/^[0-9a-f]{64}$/);
  expect(['info', 'minor', 'major', 'critical', 'blocker']).toContain(entry['severity']);
  const location = entry['location'] as Record<string, unknown>;
  expect(Object.keys(location).sort()).toEqual(['lines', 'path']);
  expect(typeof location['path']).toBe('string');
  expect(Object.keys(location['lines'] as object)).toEqual(['begin']);
  const begin = (location['lines'] as { begin: unknown }).begin;
  expect(Number.isInteger(begin) && (begin as number) >= 1).toBe(true);
}

describe('gitlab: Code Quality JSON', () => {
  it('is registered as a format', () => {
    expect(FORMAT_NAMES).toContain('gitlab');
  });

  it('on the flawed examples: every entry has exactly the required fields, fingerprints unique and stable across runs', () => {
    const result = flawedResult();
    const issues = JSON.parse(formatGitlab(result)) as Record<string, unknown>[];
    const findings = result.files.flatMap((file) => file.findings.filter((finding) => finding.suppression === undefined));
    expect(issues.length).toBe(findings.length);
    expect(issues.length).toBeGreaterThan(10);
    for (const issue of issues) expectGitlabIssue(issue);
    const fingerprints = issues.map((issue) => issue['fingerprint']);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
    expect(formatGitlab(flawedResult())).toBe(formatGitlab(result));
    issues.forEach((issue, index) => {
      const finding = findings[index]!;
      expect(issue['check_name']).toBe(finding.ruleId);
      expect((issue['location'] as { path: string }).path).toBe(finding.file);
      expect((issue['location'] as { lines: { begin: number } }).lines.begin).toBe(finding.range!.start.line);
      expect(issue['severity']).toBe({ error: 'major', warn: 'minor', info: 'info' }[finding.severity]);
    });
  });

  it('keeps fingerprints when lines move, leaves suppressed findings out and places an unreadable file at line 1', () => {
    const sample = sampleResult();
    const issues = JSON.parse(formatGitlab(sample)) as { fingerprint: string; location: { path: string; lines: { begin: number } } }[];
    for (const issue of issues) expectGitlabIssue(issue);
    expect(issues.length).toBe(sample.summary.errors + sample.summary.warnings + sample.summary.infos);
    expect(issues.find((issue) => issue.location.path === 'missing.yaml')!.location.lines.begin).toBe(1);
    const file = `${FLAWED}/no-max-timeout.yaml`;
    const text = readFileSync(file, 'utf8');
    const ruleSet = bundledRules();
    const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
    const lint = (source: string) =>
      (
        JSON.parse(formatGitlab(lintResult([lintFile(file, new TextEncoder().encode(source), { ruleSet, severities })]))) as typeof issues
      ).map((issue) => issue.fingerprint);
    expect(lint(`# a comment\n# another\n${text}`)).toEqual(lint(text));
  });

  it('is written by lint --format gitlab', () => {
    const run = runCli(['lint', '--no-config', '--format', 'gitlab', `${FLAWED}/no-max-timeout.yaml`]);
    expect(run.status).toBe(1);
    const issues = JSON.parse(run.stdout) as unknown[];
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expectGitlabIssue(issue);
  });
});
