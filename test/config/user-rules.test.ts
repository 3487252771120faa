import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stylishFindings } from '../helpers/stylish.js';
import { REPO_ROOT, runCli, showsStackTrace } from '../helpers/run-cli.js';

/** A team rule: every tool call states a description (a field the bundled rules leave alone). */
const GOOD_RULE = `id: acme-description-required
area: manifest
severity: warn
description: Every tool call says what it does.
rationale: Reviewers read the description before the policy; an operation without one is reviewed blind.
spec:
  - lesson: Shipped Artifact
    says: Give it an MCP operation, transport, timeout policy, retry behavior, queue policy, and recovery plan.
given: operation
when: [{ field: method, equals: tools/call }]
then: { field: description, function: defined }
message: "{operation} has no description"
fix: Describe what the operation does (description).
examples:
  failing: |
    mcprely: 1
    specVersion: "2026-07-28"
    server: { name: s, transports: [stdio] }
    operations:
      - { name: a, method: tools/call }
  passing: |
    mcprely: 1
    specVersion: "2026-07-28"
    server: { name: s, transports: [stdio] }
    operations:
      - { name: a, method: tools/call, description: does a }
`;

/** GOOD_RULE made a `schema` rule: every tool call carries x-tags containing "audited" (its passing example does). */
function auditTagRule(): string {
  return GOOD_RULE.replace('id: acme-description-required', 'id: acme-audit-tag')
    .replace(
      'then: { field: description, function: defined }',
      'then: { field: x-tags, function: schema, functionOptions: { schema: { type: array, contains: { const: audited } } } }',
    )
    .replace('{ name: a, method: tools/call, description: does a }', '{ name: a, method: tools/call, x-tags: [audited] }');
}

function project(rules: Record<string, string>, config = 'ruleFolders: [team-rules]\n') {
  const root = mkdtempSync(join(tmpdir(), 'mcprely-user-rules-'));
  mkdirSync(join(root, 'team-rules'));
  for (const [name, text] of Object.entries(rules)) writeFileSync(join(root, 'team-rules', name), text);
  writeFileSync(join(root, 'mcprely.config.yaml'), config);
  writeFileSync(
    join(root, 'manifest.yaml'),
    'mcprely: 1\nspecVersion: "2026-07-28"\nserver: { name: s, transports: [stdio] }\noperations:\n  - name: a\n    method: tools/call\n    sideEffect: none\n',
  );
  return root;
}

describe("the user's own rules (ruleFolders in the configuration)", () => {
  it('a schema rule works from dist/ alone, with no ajv in any node_modules (as the release tree the action runs)', () => {
    const alone = mkdtempSync(join(tmpdir(), 'mcprely-dist-alone-'));
    cpSync(join(REPO_ROOT, 'dist'), alone, { recursive: true });
    writeFileSync(join(alone, 'package.json'), '{"type":"module"}\n');
    const tagged = auditTagRule().replace('{ name: a, method: tools/call }', '{ name: a, method: tools/call, x-tags: [x] }');
    const root = project({ 'tagged.yaml': tagged });
    const run = spawnSync(process.execPath, [join(alone, 'mcprely.js'), 'lint', 'manifest.yaml', '-f', 'json'], {
      cwd: root,
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stdout) as { files: { findings: { ruleId: string }[] }[] };
    const rules = report.files.flatMap((file) => file.findings.map((finding) => finding.ruleId));
    expect(rules, run.stderr).toContain('acme-audit-tag');
    expect(rules).not.toContain('rule-file');
  });

  it('a good rule runs beside the bundled ones, at its place, and the configuration can set its severity', () => {
    const root = project({ 'description.yaml': GOOD_RULE });
    const run = runCli(['lint', 'manifest.yaml', '-f', 'json'], { cwd: root });
    const findings = (
      JSON.parse(run.stdout) as { files: { findings: { ruleId: string; severity: string; range: { start: { line: number } } }[] }[] }
    ).files[0]!.findings;
    const mine = findings.filter((finding) => finding.ruleId === 'acme-description-required');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ severity: 'warn', range: { start: { line: 5 } } });
    expect(findings.some((finding) => finding.ruleId === 'deadline-max-required')).toBe(true);
    const raised = project({ 'description.yaml': GOOD_RULE }, 'ruleFolders: [team-rules]\nrules: { acme-description-required: error }\n');
    const strict = JSON.parse(runCli(['lint', 'manifest.yaml', '-f', 'json'], { cwd: raised }).stdout) as {
      files: { findings: { ruleId: string; severity: string }[] }[];
    };
    expect(strict.files[0]!.findings.find((finding) => finding.ruleId === 'acme-description-required')?.severity).toBe('error');
  });

  it('a broken rule stops the run with its file, line and column (exit 2), and no stack trace', () => {
    const root = project({
      'description.yaml': GOOD_RULE,
      'broken.yaml': GOOD_RULE.replace('id: acme-description-required', 'id: acme-broken').replace(
        'function: defined',
        'function: definedd',
      ),
      'clash.yaml': GOOD_RULE.replace('id: acme-description-required', 'id: deadline-max-required'),
      'malformed.yaml': 'id: [unclosed\n',
    });
    const run = runCli(['lint', 'manifest.yaml'], { cwd: root });
    expect(run.status).toBe(2);
    expect(showsStackTrace(run.stdout + run.stderr)).toBe(false);
    const found = stylishFindings(run.stderr).map(
      (finding) => `${finding.file}:${finding.line}:${finding.column} ${finding.message} ${finding.ruleId}`,
    );
    expect(found.join('\n')).toMatch(
      /^team-rules\/broken\.yaml:11:39 then\.function is "definedd", .*\(did you mean "defined"\?\).* rule-file$/m,
    );
    expect(found.join('\n')).toMatch(
      /^team-rules\/clash\.yaml:1:5 The rule id "deadline-max-required" is already taken by a bundled rule\. .* rule-file$/m,
    );
    expect(found.join('\n')).toMatch(/^team-rules\/malformed\.yaml:1:\d+ .* rule-file$/m);
    expect(run.stdout).toBe('');
  });

  it("a user rule's fixes: a layout one with lint --fix, a claim change (the default kind) only with --fix-type claim", () => {
    const tagged = auditTagRule().replace(
      'fix: Describe what the operation does (description).',
      'fix: Tag the operation as audited.\nautofix: { add: audited }',
    );
    const noDraft = GOOD_RULE.replace('id: acme-description-required', 'id: acme-no-draft')
      .replace('when: [{ field: method, equals: tools/call }]', 'when: [{ field: x-draft, defined: true }]')
      .replace('then: { field: description, function: defined }', 'then: { field: x-draft, function: falsy }')
      .replace('fix: Describe what the operation does (description).', 'fix: Remove x-draft.\nautofix: { remove: true }\nfixKind: layout')
      .replace('{ name: a, method: tools/call }', '{ name: a, method: tools/call, x-draft: true }');
    const root = project({ 'tagged.yaml': tagged, 'draft.yaml': noDraft });
    const HEAD =
      'mcprely: 1\nspecVersion: "2026-07-28"\nserver: { name: s, transports: [stdio] }\n' +
      'operations:\n  - name: a # the first\n    method: tools/call\n    sideEffect: none';
    writeFileSync(
      join(root, 'manifest.yaml'),
      [HEAD, '    x-draft: true # remove before release', '    x-tags:', '      - billing', ''].join('\n'),
    );
    const before = runCli(['lint', 'manifest.yaml', '-f', 'json'], { cwd: root });
    expect(before.stderr).toBe('');
    const ids = (JSON.parse(before.stdout) as { files: { findings: { ruleId: string }[] }[] }).files[0]!.findings.map(
      (finding) => finding.ruleId,
    );
    expect(ids).toEqual(expect.arrayContaining(['acme-audit-tag', 'acme-no-draft']));
    // Plain --fix: the layout fix alone (x-draft is a marker for the linter, no claim about the server).
    runCli(['lint', 'manifest.yaml', '--fix'], { cwd: root });
    expect(readFileSync(join(root, 'manifest.yaml'), 'utf8')).toBe([HEAD, '    x-tags:', '      - billing', ''].join('\n'));
    const claims = runCli(['lint', 'manifest.yaml', '--fix', '--fix-type', 'claim'], { cwd: root });
    expect(claims.stderr).toContain('manifest.yaml: a: now claims x-tags includes "audited" — change the code');
    expect(readFileSync(join(root, 'manifest.yaml'), 'utf8')).toBe(
      [
        HEAD,
        '    x-tags:',
        '      - billing',
        '      - audited',
        '    cancellation: { invalidOrLate: ignore, suppressResponseAfterCancel: true }',
        '',
      ].join('\n'),
    );
  });

  it('mcprely rules lists and shows your own rules beside the bundled ones (the configuration names their folder)', () => {
    const root = project({ 'description.yaml': GOOD_RULE });
    const list = runCli(['rules'], { cwd: root });
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^ {2}acme-description-required .*\(your rule\)$/m);
    const page = runCli(['rules', 'acme-description-required'], { cwd: root });
    expect(page.status, page.stderr).toBe(0);
    expect(page.stdout).toContain('acme-description-required');
    // Without the configuration, it is not known.
    expect(runCli(['rules', 'acme-description-required', '--no-config'], { cwd: root }).status).toBe(2);
  });

  it("configuration problems carry their own rule id and advice, never a manifest's", () => {
    const root = project({ 'description.yaml': GOOD_RULE }, 'rules: { nosuch-rule: error }\n');
    const unknown = runCli(['lint', 'manifest.yaml'], { cwd: root });
    expect(unknown.status).toBe(2);
    expect(unknown.stdout + unknown.stderr).toMatch(
      /mcprely\.config\.yaml\n {2}1:\d+ {2}error {2}Unknown rule "nosuch-rule".* {2}config-file$/m,
    );
    const missing = runCli(['lint', 'manifest.yaml', '-c', 'nope.yaml'], { cwd: root });
    expect(missing.status).toBe(2);
    expect(missing.stdout + missing.stderr).toMatch(
      /nope\.yaml\n {2}0:0 {2}error {2}No file exists at this path\. Fix: Check the path given with -c.* {2}config-file$/m,
    );
    expect(missing.stdout + missing.stderr).not.toMatch(/create a manifest/);
  });

  it('a rule folder that does not exist is a clear error; only the folders named are read', () => {
    const root = project({ 'description.yaml': GOOD_RULE }, 'ruleFolders: [no-such-folder]\n');
    const run = runCli(['lint', 'manifest.yaml'], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('the rule folder no-such-folder (ruleFolders in the configuration) cannot be read');
    const none = project({ 'description.yaml': GOOD_RULE }, 'extends: [recommended]\n');
    const plain = JSON.parse(runCli(['lint', 'manifest.yaml', '-f', 'json'], { cwd: none }).stdout) as {
      files: { findings: { ruleId: string }[] }[];
    };
    expect(plain.files[0]!.findings.some((finding) => finding.ruleId.startsWith('acme-'))).toBe(false);
  });
});
