import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/run-cli.js';

const EXAMPLES = join(REPO_ROOT, 'fixtures/examples');

/**
 * A project: two manifests under services/ (one flawed, in legacy/), one in node_modules, a workflow, a
 * package.json and an empty folder, and a symbolic link back to the root (a cycle if it were followed).
 */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'mcprely-paths-'));
  mkdirSync(join(root, 'services/legacy'), { recursive: true });
  mkdirSync(join(root, 'node_modules/dep'), { recursive: true });
  mkdirSync(join(root, '.github/workflows'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  copyFileSync(join(EXAMPLES, 'billing.yaml'), join(root, 'services/billing.yaml'));
  copyFileSync(join(EXAMPLES, 'flawed/last-event-id.yaml'), join(root, 'services/legacy/orders.yaml'));
  copyFileSync(join(EXAMPLES, 'flawed/no-max-timeout.yaml'), join(root, 'node_modules/dep/manifest.yaml'));
  writeFileSync(join(root, '.github/workflows/ci.yml'), 'on: push\njobs: {}\n');
  writeFileSync(join(root, 'package.json'), '{ "name": "demo" }\n');
  symlinkSync(root, join(root, 'services/loop'));
  return root;
}

const filesIn = (stdout: string) =>
  (JSON.parse(stdout) as { files: { file: string; findings: { ruleId: string; messageId: string }[] }[] }).files;

describe('lint paths: folders, globs and --ignore-pattern', () => {
  it('searches a folder for manifests only, skipping node_modules, other YAML and JSON, and linked folders', () => {
    const root = project();
    const run = runCli(['lint', '.', '-f', 'json'], { cwd: root });
    expect(run.status, run.stderr).toBe(1);
    expect(filesIn(run.stdout).map((file) => file.file)).toEqual(['services/billing.yaml', 'services/legacy/orders.yaml']);
  });

  it("finds the mcprely key anywhere in a file's first 64 KiB, whether it is read in one part or two, and not after", () => {
    const root = mkdtempSync(join(tmpdir(), 'mcprely-heads-'));
    const manifest = readFileSync(join(EXAMPLES, 'billing.yaml'), 'utf8');
    const keyAfter = (bytes: number) => `# ${'x'.repeat(bytes - 3)}\n${manifest}`;
    writeFileSync(join(root, 'top.yaml'), manifest);
    writeFileSync(join(root, 'short.yaml'), 'a: 1\n');
    writeFileSync(join(root, 'edge.yaml'), keyAfter(4090)); // the key's line crosses the first part's end
    writeFileSync(join(root, 'late.yaml'), keyAfter(40_000));
    writeFileSync(join(root, 'late.json'), `{ "x": "${'y'.repeat(40_000)}",\n  "mcprely": 1 }\n`);
    writeFileSync(join(root, 'too-late.yaml'), keyAfter(70_000));
    const run = runCli(['lint', '.', '-f', 'json'], { cwd: root });
    expect(filesIn(run.stdout).map((file) => file.file)).toEqual(['edge.yaml', 'late.json', 'late.yaml', 'top.yaml']);
  });

  it('leaves out what --ignore-pattern matches, a folder name covering everything in it', () => {
    const root = project();
    const run = runCli(['lint', 'services', '--ignore-pattern', 'services/legacy', '-f', 'json'], { cwd: root });
    expect(run.status, run.stderr).toBe(0);
    expect(filesIn(run.stdout).map((file) => file.file)).toEqual(['services/billing.yaml']);
    const glob = runCli(['lint', '.', '--ignore-pattern', '**/orders.yaml', '-f', 'json'], { cwd: root });
    expect(filesIn(glob.stdout).map((file) => file.file)).toEqual(['services/billing.yaml']);
  });

  it('expands a quoted glob itself, lints every file it matches and reports a glob or folder that finds nothing (exit 2)', () => {
    const root = project();
    const run = runCli(['lint', 'services/**/*.yaml', 'empty', 'nowhere/*.yaml', '-f', 'json'], { cwd: root });
    expect(run.status).toBe(2);
    const files = filesIn(run.stdout);
    expect(files.map((file) => file.file)).toEqual(['services/billing.yaml', 'services/legacy/orders.yaml', 'empty', 'nowhere/*.yaml']);
    expect(files[2]!.findings[0]).toMatchObject({ ruleId: 'manifest-file', messageId: 'no-manifest-in-folder' });
    expect(files[3]!.findings[0]).toMatchObject({ ruleId: 'manifest-file', messageId: 'no-match' });
  });

  it('lints a file named twice (directly and through a folder) once', () => {
    const root = project();
    const run = runCli(['lint', 'services/billing.yaml', 'services', '-f', 'json'], { cwd: root });
    expect(filesIn(run.stdout).map((file) => file.file)).toEqual(['services/billing.yaml', 'services/legacy/orders.yaml']);
  });

  it('says so when an --ignore-pattern leaves out a file named on the command line, and refuses to pass having checked nothing', () => {
    const root = project();
    const some = runCli(['lint', 'services/billing.yaml', 'services/legacy/orders.yaml', '--ignore-pattern', 'services/legacy/**'], {
      cwd: root,
    });
    expect(some.status).toBe(0);
    expect(some.stderr).toContain('services/legacy/orders.yaml: ignored (it matches an --ignore-pattern)');
    const none = runCli(['lint', 'services/legacy/orders.yaml', '--ignore-pattern', 'services'], { cwd: root });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('nothing to lint');
  });
});

describe('lint links to rule pages', () => {
  it('links relative to the report file by default, so the link opens from where the report is written', () => {
    const root = project();
    mkdirSync(join(root, 'reports'));
    const run = runCli(['lint', 'services/legacy/orders.yaml', '-f', 'markdown', '-o', 'reports/lint.md'], { cwd: root });
    expect(run.status, run.stderr).toBe(1);
    const markdown = readFileSync(join(root, 'reports/lint.md'), 'utf8');
    const link = /\[`recovery-no-last-event-id`\]\(([^)]+)\)/.exec(markdown)?.[1];
    expect(link).toBeDefined();
    expect(link).not.toMatch(/^https?:/);
    // The relative link resolves to the real page of this package.
    expect(readFileSync(join(root, 'reports', decodeURIComponent(link!)), 'utf8')).toContain('# recovery-no-last-event-id');
  });

  it('links at --docs-url and sets helpUri in SARIF; a bad --docs-url is a usage error', () => {
    const root = project();
    const docs = 'https://github.example/acme/mcprely/blob/v1.2.0/docs/rules';
    const run = runCli(['lint', 'services/legacy/orders.yaml', '-f', 'sarif', '--docs-url', docs, '--sarif-category', 'mcprely/orders'], {
      cwd: root,
    });
    const sarif = JSON.parse(run.stdout);
    const rule = sarif.runs[0].tool.driver.rules.find((candidate: { id: string }) => candidate.id === 'recovery-no-last-event-id');
    expect(rule.helpUri).toBe(`${docs}/recovery-no-last-event-id.md`);
    expect(sarif.runs[0].automationDetails.id).toBe('mcprely/orders/');
    expect(sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/\/.*\/$/);
    for (const bad of ['javascript:alert(1)', 'docs/rules', 'https://x.test/docs/?q=1']) {
      const refused = runCli(['lint', 'services/billing.yaml', '--docs-url', bad], { cwd: root });
      expect(refused.status, bad).toBe(2);
      expect(refused.stderr).toContain('--docs-url');
    }
    expect(runCli(['lint', 'services/billing.yaml', '--sarif-category', 'a b/'], { cwd: root }).status).toBe(2);
  });
});
