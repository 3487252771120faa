import { describe, expect, it } from 'vitest';
import { lintText } from '../helpers/lint-text.js';
import { runCli } from '../helpers/run-cli.js';

describe('init --template: a commented manifest without a server', () => {
  it.each([
    ['2026-07-28', 'both'],
    ['2026-07-28', 'streamable-http'],
    ['2025-11-25', 'both'],
    ['2025-11-25', 'stdio'],
  ])('%s, %s: lints with findings only for the decisions it leaves open, each marked DECIDE', (revision, transport) => {
    const run = runCli(['init', '--template', '--spec-version', revision, '--transport', transport]);
    expect(run.status, run.stderr).toBe(0);
    const text = run.stdout;
    expect(text).toContain(`specVersion: "${revision}"`);
    expect(text.split('\n').filter((line) => /#/.test(line)).length).toBeGreaterThan(10);
    const findings = lintText(text, undefined, 'template.yaml');
    expect(findings.map((finding) => finding.ruleId)).toEqual(['retry-side-effect-declared']);
    const lines = text.split('\n');
    for (const finding of findings) {
      const line = finding.range!.start.line;
      // The decision is marked on the finding's line or the comment just above it.
      expect(`${lines[line - 2]}\n${lines[line - 1]}`, finding.message).toMatch(/DECIDE: its side effect/);
    }
    if (transport === 'stdio') expect(text).not.toContain('http:');
    else expect(text).toContain('X-Accel-Buffering: "no"');
  });

  it('once the marked decision is made, the template lints clean', () => {
    const text = runCli(['init', '--template']).stdout.replace(
      '    method: tools/call\n',
      '    method: tools/call\n    sideEffect: none\n',
    );
    expect(lintText(text, undefined, 'template.yaml')).toEqual([]);
  });

  it('refuses --template together with a server', () => {
    const run = runCli(['init', '--template', '--from-stdio', 'node -e 0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--template writes without a server');
  });
});
