import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const FLAWED = 'fixtures/examples/flawed/no-max-timeout.yaml';
const text = readFileSync(FLAWED, 'utf8');

describe('lint --stdin', () => {
  it('lints standard input under <stdin>, with the same findings as the file', () => {
    const fromFile = runCli(['lint', '--no-config', '-f', 'json', FLAWED]);
    const fromStdin = runCli(['lint', '--no-config', '-f', 'json', '--stdin'], { input: text });
    expect(fromStdin.status).toBe(fromFile.status);
    const files = (run: typeof fromFile) => (JSON.parse(run.stdout) as { files: { file: string; findings: { ruleId: string }[] }[] }).files;
    expect(files(fromStdin).map((file) => file.file)).toEqual(['<stdin>']);
    expect(files(fromStdin)[0]!.findings.map((finding) => finding.ruleId)).toEqual(
      files(fromFile)[0]!.findings.map((finding) => finding.ruleId),
    );
    const stylish = runCli(['lint', '--no-config', '-'], { input: text });
    expect(stylish.stdout).toContain('<stdin>');
    expect(stylish.stdout).not.toContain(FLAWED);
  });

  it('reports under --stdin-filename, and the configuration overrides are chosen by that name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-stdin-'));
    try {
      writeFileSync(join(dir, 'mcprely.config.yaml'), 'overrides:\n  - files: ["legacy/**"]\n    rules: { deadline-max-required: off }\n');
      const ids = (name: string) => {
        const run = runCli(['lint', '-f', 'json', '--stdin', '--stdin-filename', name], { cwd: dir, input: text });
        const report = JSON.parse(run.stdout) as { files: { file: string; findings: { ruleId: string }[] }[] };
        expect(report.files[0]!.file).toBe(name);
        return report.files[0]!.findings.map((finding) => finding.ruleId);
      };
      expect(ids('services/mcp.yaml')).toContain('deadline-max-required');
      expect(ids('legacy/mcp.yaml')).not.toContain('deadline-max-required');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an empty or broken input is an input error (exit 2), as a file would be', () => {
    const run = runCli(['lint', '--no-config', '--stdin'], { input: 'mcprely: 1\nserver: [a, b\n' });
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(/^<stdin>\n {2}2:\d+ {2}error {2}/m);
  });

  it('--fix is refused with a clear message; --fix-dry-run prints the diff and writes nothing', () => {
    const refused = runCli(['lint', '--no-config', '--stdin', '--fix'], { input: text });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--fix writes files, and standard input is not one: use --fix-dry-run');
    const dry = runCli(['lint', '--no-config', '--stdin', '--stdin-filename', 'm.yaml', '--fix-dry-run'], { input: text });
    expect(dry.status, dry.stderr).not.toBe(2);
    expect(dry.stderr).toMatch(/would fix/);
  });

  it.each([
    [['lint', '--stdin', FLAWED], 'give no other paths with it'],
    [['lint', '-', FLAWED], 'give no other paths with it'],
    [['lint', '--stdin-filename', 'a.yaml', FLAWED], '--stdin-filename names standard input'],
    [['lint'], "missing required argument 'paths'"],
  ])('usage error (exit 2): %j', (args, message) => {
    const run = runCli(args, { input: text });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
