import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scaffoldManifest } from '../../src/init/scaffold-manifest.js';
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

describe('init from a server: the scaffold is written through the yaml document API', () => {
  it('hostile names and descriptions read back exactly; comments carry what was inferred; no tools is an empty list', () => {
    const tools = [
      { name: 'yes', description: 'line one\nline two # not a comment', annotations: { readOnlyHint: true } },
      { name: '0.5', description: 'reports progress', annotations: { idempotentHint: true }, arguments: ['idempotency_key'], required: [] },
      { name: 'a:b/c', taskSupport: 'required' },
    ];
    const text = scaffoldManifest({ serverName: 'no', specVersion: '2025-11-25', transport: 'stdio', source: 'cmd\n--x', tools });
    const value = parse(text) as { server: { name: string }; operations: Record<string, unknown>[] };
    expect(value.server.name).toBe('no');
    expect(value.operations.map((operation) => operation['name'])).toEqual(['yes', '0.5', 'a:b/c']);
    expect(value.operations[0]).toMatchObject({ description: 'line one\nline two # not a comment', sideEffect: 'none' });
    expect(value.operations[1]).toMatchObject({
      sideEffect: 'idempotent',
      idempotency: { keyArgument: 'idempotency_key' },
      progress: { emits: true },
      'x-mcprely-unverified': ['sideEffect', 'idempotency.keyArgument', 'progress.emits'],
    });
    expect(value.operations[2]).toMatchObject({ sideEffect: 'mutation', task: { used: true }, timeouts: {} });
    expect(text).toMatch(/^server:\n {2}name: "no"\n/m);
    expect(text).toMatch(/^ {2}- name: "yes"\n {4}method: tools\/call\n {4}description: "line one\\nline two # not a comment"$/m);
    expect(text).toMatch(/^ {2}- name: "0\.5"$/m);
    expect(text).toMatch(/^ {4}sideEffect: none # unverified: inferred from readOnlyHint: true$/m);
    expect(text).toMatch(
      /^ {4}idempotency: \{ keyArgument: idempotency_key \} # unverified: proposed from the input schema \(where it is optional\)$/m,
    );
    expect(text).toMatch(/^ {4}task: \{ used: true \} # as advertised: execution\.taskSupport is required$/m);
    // Every line of the header is a comment, even where the command held a line break.
    expect(
      text
        .split('\n')
        .slice(0, 6)
        .every((line) => line === '' || line.startsWith('#')),
    ).toBe(true);
    const findings = lintText(text, undefined, 'scaffold.yaml');
    expect(
      findings.filter((finding) => finding.ruleId.startsWith('manifest-')).map((finding) => finding.message),
      text,
    ).toEqual([]);
    const empty = scaffoldManifest({ serverName: 's', specVersion: '2026-07-28', transport: 'stdio', source: 'x', tools: [] });
    expect(parse(empty)).toMatchObject({ operations: [] });
    expect(empty).toMatch(/^operations: \[\] # TODO: the server listed no tools$/m);
  });
});
