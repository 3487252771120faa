import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { LineIndex } from '../../src/document/line-index.js';
import { severityResolver } from '../../src/config/resolve-severities.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { runCli, REPO_ROOT } from '../helpers/run-cli.js';

const ruleSet = bundledRules();
const known = new Set(ruleSet.byId.keys());
const definitions = ruleSet.rules.map((rule) => rule.definition);
const encode = (text: string) => new TextEncoder().encode(text);

function load(text: string, file = 'mcprely.config.yaml') {
  return loadConfig(file, encode(text), known);
}

describe('configuration', () => {
  it('applies presets, per-rule settings and per-file overrides, later ones winning', () => {
    const loaded = load(
      [
        'extends: [recommended]',
        'rules:',
        '  retry-backoff: error',
        '  deadline-long-suggests-task: off',
        'overrides:',
        '  - files: ["legacy/**/*.yaml"]',
        '    rules: { idem-ledger-shared: warn, retry-backoff: off }',
      ].join('\n'),
    );
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const severities = severityResolver(loaded.config, definitions);
    const current = severities('services/billing.yaml');
    expect(current.get('retry-backoff')).toBe('error');
    expect(current.has('deadline-long-suggests-task')).toBe(false);
    expect(current.get('idem-ledger-shared')).toBe('error');
    const legacy = severities('legacy/old/billing.yaml');
    expect(legacy.get('idem-ledger-shared')).toBe('warn');
    expect(legacy.has('retry-backoff')).toBe(false);
    expect(current.size).toBe(definitions.length - 1);
  });

  it('strict turns every rule on and raises warnings to errors, infos to warnings', () => {
    const loaded = load('extends: [strict]\n');
    if (!loaded.ok) throw new Error('strict did not load');
    const strict = severityResolver(loaded.config, definitions)('m.yaml');
    expect(strict.get('retry-backoff')).toBe('error');
    expect(strict.get('deadline-long-suggests-task')).toBe('warn');
    expect(strict.size).toBe(definitions.length);
  });

  it.each([
    ['an unknown rule id', 'rules:\n  retry-backof: warn\n', 2, 3, 'Unknown rule "retry-backof" (did you mean "retry-backoff"?)'],
    [
      'an unknown rule id in an override',
      'overrides:\n  - files: ["*.yaml"]\n    rules: { no-such-rule: off }\n',
      3,
      14,
      'Unknown rule "no-such-rule"',
    ],
    [
      'a bad severity',
      'rules:\n  retry-backoff: warning\n',
      2,
      18,
      'rules.retry-backoff is "warning", which is not one of off, error, warn, info (did you mean "warn"?)',
    ],
    [
      'an unknown preset',
      'extends: [recomended]\n',
      1,
      11,
      'extends[0] is "recomended", which is not one of recommended, strict (did you mean "recommended"?)',
    ],
    ['an unknown key', 'rule: {}\n', 1, 1, 'Unknown field "rule" in the configuration (did you mean "rules"?)'],
  ])('refuses %s with its place', (_, text, line, column, message) => {
    const loaded = load(text);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(new LineIndex(loaded.text).position(loaded.problems[0]!.start!)).toEqual({ line, column });
    expect(loaded.problems[0]!.message).toBe(message);
  });
});

describe('configuration on the command line', () => {
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-config-'));
    mkdirSync(join(dir, 'legacy'));
    copyFileSync(join(REPO_ROOT, 'fixtures/examples/flawed/retry-mutation-without-key.yaml'), join(dir, 'legacy/invoicing.yaml'));
    copyFileSync(join(REPO_ROOT, 'fixtures/examples/flawed/retry-mutation-without-key.yaml'), join(dir, 'invoicing.yaml'));
    return dir;
  };

  it('finds mcprely.config.yaml in the working directory and applies its overrides by glob', () => {
    const dir = project();
    writeFileSync(join(dir, 'mcprely.config.yaml'), 'overrides:\n  - files: ["legacy/**"]\n    rules: { retry-mutation-needs-key: off }\n');
    const run = runCli(['lint', 'invoicing.yaml', 'legacy/invoicing.yaml', '--format', 'json'], { cwd: dir });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { files: { file: string; findings: { ruleId: string }[] }[] };
    expect(report.files.map((file) => [file.file, file.findings.map((finding) => finding.ruleId)])).toEqual([
      ['invoicing.yaml', ['retry-mutation-needs-key']],
      ['legacy/invoicing.yaml', []],
    ]);
    expect(runCli(['lint', 'invoicing.yaml', '--no-config', '--format', 'json'], { cwd: dir }).status).toBe(1);
  });

  it('refuses an override glob that cannot match as written, at its line and column, as config-file', () => {
    const dir = project();
    writeFileSync(join(dir, 'custom.yaml'), 'overrides:\n  - files: ["legacy/*.yaml", "["]\n    rules: {}\n');
    const run = runCli(['lint', 'invoicing.yaml', '--config', 'custom.yaml'], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^custom\.yaml\n {2}2:30 {2}error {2}The glob cannot be used: the set opened by "\[" at character 1 is never closed; /m,
    );
    expect(run.stderr).toMatch(/write \\\[ for a literal \[\. Fix: .* {2}config-file$/m);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it('stops with exit 2 and the place on a bad configuration, without a stack trace', () => {
    const dir = project();
    writeFileSync(join(dir, 'custom.yaml'), 'rules:\n  retry-mutation-needs-kee: off\n');
    const run = runCli(['lint', 'invoicing.yaml', '--config', 'custom.yaml'], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        '^custom\\.yaml\n {2}2:3 {2}error {2}Unknown rule "retry-mutation-needs-kee" \\(did you mean "retry-mutation-needs-key"\\?\\)\\. ' +
          'Fix: Use retry-mutation-needs-key {2}config-file$',
        'm',
      ),
    );
    expect(run.stdout).toBe('');
    const missing = runCli(['lint', 'invoicing.yaml', '--config', 'nope.yaml'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^nope\.yaml\n {2}0:0 {2}error {2}No file exists at this path/);
  });
});
