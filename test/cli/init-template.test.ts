import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scaffoldManifest } from '../../src/init/scaffold-manifest.js';
import { lintText } from '../helpers/lint-text.js';
import { runCli } from '../helpers/run-cli.js';
import { HOSTILE } from '../probe/probe-harness.js';

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
    // One finding per placeholder (server name, tool name, description) and per decision marked DECIDE.
    expect(findings.map((finding) => `${finding.ruleId} ${finding.path}`).sort()).toEqual([
      'manifest-placeholders /operations/0/description',
      'manifest-placeholders /operations/0/name',
      'manifest-placeholders /server/name',
      'retry-side-effect-declared /operations/0/sideEffect',
    ]);
    const lines = text.split('\n');
    const markers = lines.filter((line) => line.includes('# DECIDE')).length;
    expect(findings).toHaveLength(markers);
    for (const finding of findings) {
      const line = finding.range!.start.line;
      // The decision is marked on the finding's line or the comment just above it.
      expect(`${lines[line - 2]}\n${lines[line - 1]}`, finding.message).toMatch(/# DECIDE: /);
    }
    if (transport === 'stdio') expect(text).not.toContain('http:');
    else expect(text).toContain('X-Accel-Buffering: "no"');
  });

  it('once every marked decision is made and every placeholder replaced, the template lints clean', () => {
    const text = runCli(['init', '--template'])
      .stdout.replace('    method: tools/call\n', '    method: tools/call\n    sideEffect: none\n')
      .replace('name: my-server', 'name: catalog')
      .replace('name: my_tool', 'name: search_catalog')
      .replace('What the tool does, in one sentence.', 'Searches the catalog.');
    expect(lintText(text, undefined, 'template.yaml')).toEqual([]);
  });

  it('writes the $schema path relative to the file written, and never over an existing file without --force', () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcprely-init-'));
    try {
      mkdirSync(join(folder, 'manifests'));
      const first = runCli(['init', '--template', '-o', 'manifests/mcp.yaml'], { cwd: folder });
      expect(first.status, first.stderr).toBe(0);
      const written = readFileSync(join(folder, 'manifests/mcp.yaml'), 'utf8');
      expect(written.split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/mcprely/schemas/manifest.schema.json');
      const top = runCli(['init', '--template', '-o', 'mcp.yaml'], { cwd: folder });
      expect(top.status, top.stderr).toBe(0);
      expect(readFileSync(join(folder, 'mcp.yaml'), 'utf8').split('\n')[0]).toContain('$schema=./node_modules/mcprely/schemas/');
      writeFileSync(join(folder, 'manifests/mcp.yaml'), 'mine\n');
      const refused = runCli(['init', '--template', '-o', 'manifests/mcp.yaml'], { cwd: folder });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('manifests/mcp.yaml already exists; give --force to overwrite it');
      expect(readFileSync(join(folder, 'manifests/mcp.yaml'), 'utf8')).toBe('mine\n');
      // Refused before any server is asked.
      const fromServer = runCli(['init', '--from-stdio', 'node -e 0', '-o', 'manifests/mcp.yaml'], { cwd: folder });
      expect(fromServer.status).toBe(2);
      expect(fromServer.stderr).toContain('already exists');
      const forced = runCli(['init', '--template', '-o', 'manifests/mcp.yaml', '--force'], { cwd: folder });
      expect(forced.status, forced.stderr).toBe(0);
      expect(readFileSync(join(folder, 'manifests/mcp.yaml'), 'utf8')).toBe(written);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('plain init, with no server and no --template, names both in its usage error', () => {
    const run = runCli(['init']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--from-stdio');
    expect(run.stderr).toContain('--template');
  });

  it('refuses --template together with a server', () => {
    const run = runCli(['init', '--template', '--from-stdio', 'node -e 0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--template writes without a server');
  });

  it.each([
    [['--template', '--observe']],
    [['--from-stdio', 'node -e 0', '--allow-mutations']],
    [['--from-stdio', 'node -e 0', '--max-time', '1000']],
    [['--from-stdio', 'node -e 0', '--quiet']],
  ])('refuses --observe without a server, and its options without it: %j', (args) => {
    const run = runCli(['init', ...args]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'error: --observe probes the tools of a server (--from-stdio/--from-url, not --template); --allow-mutations, --max-time and --quiet go with it\n',
    );
  });
});

describe('init from a server: the scaffold is written through the yaml document API', () => {
  it('every page of tools/list is read: a tool behind a cursor gets its operation; the server is named as initialize names it', () => {
    const run = runCli(['init', '--from-stdio', `node ${HOSTILE} paged-tools`]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}name: hostile-paged-tools$/m);
    expect([...run.stdout.matchAll(/^ {2}- name: (\S+)$/gm)].map((match) => match[1])).toEqual(['quick_look', 'slow_job']);
  });

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
