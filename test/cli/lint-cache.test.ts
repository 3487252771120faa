import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, showsStackTrace } from '../helpers/run-cli.js';

/** A project with the flawed examples and the complete one, and no configuration. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'mcprely-cache-'));
  cpSync('fixtures/examples/flawed', join(root, 'manifests'), { recursive: true });
  cpSync('fixtures/examples/billing.yaml', join(root, 'manifests', 'billing.yaml'));
  return root;
}

const lint = (root: string, ...extra: string[]) => runCli(['lint', 'manifests', '-f', 'json', ...extra], { cwd: root });
const cacheLine = (stderr: string) =>
  /^lint cache: (\d+) of (\d+) files? unchanged \(reports from the cache\), (\d+) linted$/m.exec(stderr);

describe('lint --cache', () => {
  it('a second run reads every unchanged file from the cache, with the same findings, byte for byte', () => {
    const root = project();
    const plain = lint(root);
    const first = lint(root, '--cache');
    const files = Number(cacheLine(first.stderr)![2]);
    expect(files).toBeGreaterThan(10);
    expect(cacheLine(first.stderr)!.slice(1)).toEqual(['0', String(files), String(files)]);
    const second = lint(root, '--cache');
    expect(cacheLine(second.stderr)!.slice(1)).toEqual([String(files), String(files), '0']);
    expect(second.stdout).toBe(plain.stdout);
    expect(second.status).toBe(plain.status);
    expect(first.stdout).toBe(plain.stdout);
    // Every other format too (SARIF carries the fixes, worked out from the bytes read).
    for (const format of ['sarif', 'stylish', 'markdown', 'junit', 'github'])
      expect(runCli(['lint', 'manifests', '-f', format, '--cache'], { cwd: root }).stdout, format).toBe(
        runCli(['lint', 'manifests', '-f', format], { cwd: root }).stdout,
      );
  });

  it('a folder search takes the manifests the cache knows unchanged, and never a file cached when named that is no manifest', () => {
    const root = project();
    const filesOf = (stdout: string) => (JSON.parse(stdout) as { files: { file: string }[] }).files.map((file) => file.file);
    writeFileSync(join(root, 'manifests', 'notes.yaml'), 'title: not a manifest\n');
    // Named on its own, the file is linted (and cached) …
    expect(filesOf(runCli(['lint', 'manifests/notes.yaml', '-f', 'json', '--cache'], { cwd: root }).stdout)).toEqual([
      'manifests/notes.yaml',
    ]);
    const cache = JSON.parse(readFileSync(join(root, 'node_modules/.cache/mcprely/lint-cache.json'), 'utf8')) as {
      files: Record<string, { manifestHead?: boolean }>;
    };
    expect(Object.values(cache.files).map((entry) => entry.manifestHead)).toEqual([false]);
    // … but a search of its folder leaves it out, on the run that fills the cache and on the one that reads it.
    const plain = filesOf(lint(root).stdout);
    expect(plain).not.toContain('manifests/notes.yaml');
    expect(filesOf(lint(root, '--cache').stdout)).toEqual(plain);
    const second = lint(root, '--cache');
    expect(filesOf(second.stdout)).toEqual(plain);
    expect(cacheLine(second.stderr)!.slice(1)).toEqual([String(plain.length), String(plain.length), '0']);
    // A cached manifest changed into something else is read again, and left out.
    writeFileSync(join(root, 'manifests', 'billing.yaml'), 'title: no longer a manifest\n');
    expect(filesOf(lint(root, '--cache').stdout)).toEqual(plain.filter((file) => file !== 'manifests/billing.yaml'));
  });

  it('one file changed: only that file is linted again, and its findings are the new ones', () => {
    const root = project();
    lint(root, '--cache');
    const file = join(root, 'manifests', 'billing.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('invalidOrLate: ignore', 'invalidOrLate: error-response'));
    const run = lint(root, '--cache');
    const [hits, total, linted] = cacheLine(run.stderr)!.slice(1).map(Number);
    expect(linted).toBe(1);
    expect(hits).toBe(total! - 1);
    expect(run.stdout).toBe(lint(root).stdout);
    expect(run.stdout).toContain('cancel-invalid-ignored');
  });

  it('a change of configuration or of a rule file invalidates; the cache location can be a folder of its own', () => {
    const root = project();
    const folder = join(root, 'cache-here/');
    lint(root, '--cache-location', folder);
    expect(cacheLine(lint(root, '--cache-location', folder).stderr)![3]).toBe('0');
    writeFileSync(join(root, 'mcprely.config.yaml'), 'rules: { deadline-max-required: warn }\n');
    const reconfigured = lint(root, '--cache-location', folder);
    expect(cacheLine(reconfigured.stderr)![1]).toBe('0');
    expect(reconfigured.stdout).toBe(lint(root).stdout);
    // The rule off, the strict preset, the rule back at its own severity: each another configuration.
    for (const config of ['rules: { deadline-max-required: off }\n', 'extends: [strict]\n', 'rules: { deadline-max-required: error }\n']) {
      writeFileSync(join(root, 'mcprely.config.yaml'), config);
      const again = lint(root, '--cache-location', folder);
      expect(cacheLine(again.stderr)![1], config).toBe('0');
      expect(again.stdout, config).toBe(lint(root).stdout);
      expect(cacheLine(lint(root, '--cache-location', folder).stderr)![3], config).toBe('0');
    }
    expect(readFileSync(join(folder, 'lint-cache.json'), 'utf8')).toContain('"format":"mcprely-lint-cache"');
    // A rule of the user's own, then an edit of it: each time every file is linted again.
    mkdirSync(join(root, 'team-rules'));
    const rule = readFileSync('rules/deadline-max-required.yaml', 'utf8').replace('id: deadline-max-required', 'id: acme-max-required');
    writeFileSync(join(root, 'team-rules', 'max.yaml'), rule);
    writeFileSync(join(root, 'mcprely.config.yaml'), 'ruleFolders: [team-rules]\n');
    lint(root, '--cache-location', folder);
    expect(cacheLine(lint(root, '--cache-location', folder).stderr)![3]).toBe('0');
    writeFileSync(join(root, 'team-rules', 'max.yaml'), rule.replace('severity: error', 'severity: warn'));
    const edited = lint(root, '--cache-location', folder);
    expect(cacheLine(edited.stderr)![1]).toBe('0');
    expect(edited.stdout).toBe(lint(root).stdout);
  });

  it('a corrupt, foreign or tampered cache file is ignored with a warning, never trusted, never fatal', () => {
    const root = project();
    const location = join(root, 'cache.json');
    const plain = lint(root);
    for (const [content, warns] of [
      ['{ not json', true],
      ['{"eslintcache": true}', true],
      ['[1, 2, 3]', true],
      [JSON.stringify({ format: 'mcprely-lint-cache', version: 1, tool: 'x', rules: 'y', files: { a: { content: 1 } } }), true],
    ] as const) {
      writeFileSync(location, content);
      const run = lint(root, '--cache-location', location);
      expect(run.stdout, content).toBe(plain.stdout);
      expect(run.status).toBe(plain.status);
      expect(showsStackTrace(run.stderr)).toBe(false);
      if (warns)
        expect(run.stderr, content).toMatch(
          /^warning: .*cache\.json is not a lint cache mcprely wrote \(corrupt or foreign\); it is ignored and will be rewritten$/m,
        );
      expect(cacheLine(run.stderr)![1]).toBe('0');
      expect(JSON.parse(readFileSync(location, 'utf8')).format).toBe('mcprely-lint-cache');
    }
    // A cache whose reports were edited to hide a finding, but written for other rules, is not used either.
    lint(root, '--cache-location', location);
    const cache = JSON.parse(readFileSync(location, 'utf8'));
    for (const entry of Object.values(cache.files) as { report: { findings: unknown[] } }[]) entry.report.findings = [];
    cache.rules = 'tampered';
    writeFileSync(location, JSON.stringify(cache));
    expect(lint(root, '--cache-location', location).stdout).toBe(plain.stdout);
  });
});
