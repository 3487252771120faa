import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeActionsOf, diagnosticOf } from '../../src/language-server/lsp-findings.js';
import { parseDocumentBytes } from '../../src/document/parse-document.js';
import { type Finding, makeFinding } from '../../src/findings/finding.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { lintText } from '../helpers/lint-text.js';
import { CLI, runCli } from '../helpers/run-cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'mcprely-fix-kinds-'));
const BILLING = readFileSync('fixtures/examples/billing.yaml', 'utf8');

/** What a manifest claims: its parsed value (comments and layout left out). */
const claimsOf = (text: string): unknown => {
  const parsed = parseDocumentBytes('m.yaml', new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(parsed.problems[0]!.message);
  return parsed.document.value;
};

/** Breakages of the complete example that a bundled rule's claim change repairs. */
const BREAKAGES: readonly [string, string][] = [
  ['suppressResponseAfterCancel: true', 'suppressResponseAfterCancel: false # we answer anyway'],
  ['invalidOrLate: ignore', 'invalidOrLate: error-response'],
  ['cancelOnTimeout: true', 'cancelOnTimeout: false'],
  ['keepaliveCountsAsActivity: false', 'keepaliveCountsAsActivity: true'],
  ['sendLastEventId: false', 'sendLastEventId: true'],
  ['    preserveFinal: true', '    preserveFinal: false'],
  ['replayUnsafeMutations: false', 'replayUnsafeMutations: true'],
  ['whileInFlight: wait', 'whileInFlight: execute'],
  ['cancellation: { stopsWork: checkpoint }', 'cancellation: { stopsWork: checkpoint, serverSendsCancelled: true }'],
];

/** Every example (flawed and complete) and 30 generated manifests, each with the claim changes lint offers for it. */
function corpus(): { name: string; text: string }[] {
  const examples = [
    ...readdirSync('fixtures/examples/flawed')
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => ({ name: `flawed-${name}`, text: readFileSync(`fixtures/examples/flawed/${name}`, 'utf8') })),
    ...readdirSync('fixtures/examples')
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => ({ name, text: readFileSync(`fixtures/examples/${name}`, 'utf8') })),
  ];
  const generated = fc.sample(fc.subarray([...BREAKAGES.keys()], { minLength: 1 }), { numRuns: 30, seed: 27 }).map((broken, index) => ({
    name: `generated-${index}.yaml`,
    text: broken.reduce((text, at) => text.replace(BREAKAGES[at]![0], BREAKAGES[at]![1]), BILLING),
  }));
  return [...examples, ...generated];
}

function writeAll(files: readonly { name: string; text: string }[]): string {
  const dir = tmp();
  for (const file of files) writeFileSync(join(dir, file.name), file.text);
  return dir;
}

describe('lint --fix changes no claim; --fix-type claim does, and says what the code must now do', () => {
  it('plain --fix on every example and 30 generated manifests: every value the manifests claim is as it was', () => {
    const files = corpus();
    // Not vacuous: the corpus is full of claim changes lint offers, which plain --fix must leave alone.
    const offered = files.reduce((sum, file) => sum + lintText(file.text).filter((finding) => finding.claimFix !== undefined).length, 0);
    expect(offered).toBeGreaterThan(50);
    const dir = writeAll(files);
    const run = runCli(['lint', ...files.map((file) => file.name), '--fix', '-f', 'json'], { cwd: dir });
    for (const file of files) expect(claimsOf(readFileSync(join(dir, file.name), 'utf8')), file.name).toEqual(claimsOf(file.text));
    expect(run.stderr).toMatch(/^fixed 0 values in 0 files$/m);
    expect(run.stderr).not.toContain('now claims');
    // The report still offers each claim change, for a person to make in the code first.
    const report = JSON.parse(run.stdout) as { files: { findings: Finding[] }[] };
    expect(report.files.flatMap((file) => file.findings).filter((finding) => finding.claimFix !== undefined).length).toBe(offered);
  }, 120_000);

  it('every bundled rule with a fix declares what kind it is: all twenty change a claim (none is layout)', () => {
    const withFix = bundledRules().rules.filter(({ definition }) => JSON.stringify(definition).includes('"autofix"'));
    expect(withFix.map(({ definition }) => definition.id).length).toBe(20);
    expect(withFix.filter(({ definition }) => (definition.fixKind ?? 'claim') !== 'claim')).toEqual([]);
  });

  it('--fix --fix-type claim applies them, keeps a trailing comment and lists a to-do per operation', () => {
    const text = BILLING.replace('suppressResponseAfterCancel: true', 'suppressResponseAfterCancel: false   # we answer anyway');
    const dir = writeAll([{ name: 'billing.yaml', text }]);
    const run = runCli(['lint', 'billing.yaml', '--fix', '--fix-type', 'claim'], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    const after = readFileSync(join(dir, 'billing.yaml'), 'utf8');
    expect(after).toContain('suppressResponseAfterCancel: true   # we answer anyway');
    expect(after).not.toContain('suppressResponseAfterCancel: false');
    const todos = run.stderr.split('\n').filter((line) => line.includes('now claims'));
    expect(todos.length).toBeGreaterThan(0);
    for (const todo of todos)
      expect(todo).toMatch(
        new RegExp(
          '^ {2}billing\\.yaml: [\\w-]+: now claims cancellation\\.suppressResponseAfterCancel: true — change the code; ' +
            '`mcprely drift` checks it; the comment kept on its line \\(# we answer anyway\\) may need rewording$',
        ),
      );
    // One to-do per operation that inherits the value.
    expect(new Set(todos).size).toBe(todos.length);
    expect(run.stderr).toMatch(/^to do: the manifest claims what the code must now do$/m);
  });

  it('--fix-dry-run > file holds only a diff (it applies with git apply); the report goes to standard error', () => {
    const text = BILLING.replace('invalidOrLate: ignore', 'invalidOrLate: error-response');
    const dir = writeAll([{ name: 'billing.yaml', text }]);
    const out = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${CLI}" lint billing.yaml --fix-dry-run --fix-type claim -f json > fix.diff`],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    const diff = readFileSync(join(dir, 'fix.diff'), 'utf8');
    expect(diff).toMatch(/^--- a\/billing\.yaml\n\+\+\+ b\/billing\.yaml\n@@ /);
    for (const line of diff.split('\n').slice(0, -1)) expect(line).toMatch(/^(--- |\+\+\+ |@@ |[ +-])/);
    expect(readFileSync(join(dir, 'billing.yaml'), 'utf8')).toBe(text);
    expect(JSON.parse(out.stderr.slice(out.stderr.indexOf('{'))).files).toHaveLength(1);
    expect(out.stderr).toMatch(/^to do, if applied: /m);
    mkdirSync(join(dir, 'patched'));
    writeFileSync(join(dir, 'patched', 'billing.yaml'), text);
    const applied = spawnSync('git', ['apply', '--unidiff-zero', '../fix.diff'], { cwd: join(dir, 'patched'), encoding: 'utf8' });
    expect(applied.status, applied.stderr).toBe(0);
    expect(readFileSync(join(dir, 'patched', 'billing.yaml'), 'utf8')).toBe(BILLING);
  });

  it('--fix-type: an unknown kind, or no --fix, is a usage error (exit 2)', () => {
    const unknown = runCli(['lint', 'fixtures/examples/billing.yaml', '--fix', '--fix-type', 'layout,behaviour']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('"behaviour" is not a kind of fix; use layout, claim');
    const alone = runCli(['lint', 'fixtures/examples/billing.yaml', '--fix-type', 'claim']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--fix-type goes with --fix or --fix-dry-run');
  });

  it('every format shows a claim change as one, apart from a fix --fix makes', () => {
    const dir = writeAll([{ name: 'm.yaml', text: readFileSync('fixtures/examples/flawed/last-event-id.yaml', 'utf8') }]);
    const lint = (format: string) => runCli(['lint', 'm.yaml', '-f', format], { cwd: dir }).stdout;
    expect(lint('stylish')).toMatch(/\(claim change: set [\w.]+sendLastEventId to false\) {2}recovery-no-last-event-id$/m);
    expect(lint('stylish')).toMatch(/^1 finding has a claim change: the manifest would say the server does it/m);
    expect(lint('stylish')).not.toContain('can be fixed with mcprely lint --fix');
    const json = JSON.parse(lint('json')) as { files: { findings: Finding[] }[] };
    const finding = json.files[0]!.findings.find((candidate) => candidate.ruleId === 'recovery-no-last-event-id')!;
    expect(finding.claimFix).toEqual({ set: false });
    expect(finding.autofix).toBeUndefined();
    const sarif = JSON.parse(lint('sarif')) as { runs: { results: { ruleId: string; fixes?: { description: { text: string } }[] }[] }[] };
    expect(sarif.runs[0]!.results.find((result) => result.ruleId === 'recovery-no-last-event-id')!.fixes![0]!.description.text).toMatch(
      /\(a claim change: the manifest would say the server does this; make the server do it\)$/,
    );
    const claimWords = /Claim change: set [\w.]+sendLastEventId to false — the manifest would claim it; make the server do it/;
    expect(lint('github')).toMatch(claimWords);
    expect(lint('junit')).toMatch(claimWords);
    expect(lint('markdown')).toMatch(/\*Claim change:\* set [\w.]+sendLastEventId to false — the manifest would claim it/);
    expect(lint('markdown')).not.toContain('*Fix (mcprely lint --fix does it):*');
  });
});

describe('the language server: layout fixes preferred, claim changes offered apart', () => {
  const replacement = { start: { line: 3, column: 5 }, end: { line: 3, column: 10 }, text: 'true' };
  const base = {
    ruleId: 'r',
    severity: 'error' as const,
    messageId: 'default',
    message: 'm',
    file: 'm.yaml',
    path: '/operations/0/cancellation/suppressResponseAfterCancel',
    range: { start: { line: 3, column: 5 }, end: { line: 3, column: 10 } },
  };
  const actionsOf = (finding: Finding) =>
    codeActionsOf(
      finding,
      diagnosticOf(finding, 0, () => undefined),
      'file:///m.yaml',
      1,
    );

  it('a layout fix is a preferred quick fix; a claim change a quick fix never preferred, titled for the server; a suggestion too', () => {
    const layout = actionsOf(makeFinding({ ...base, autofix: { set: true, replacement } }));
    expect(layout.map(({ title, kind, isPreferred }) => ({ title, kind, isPreferred }))).toEqual([
      { title: 'Fix: set cancellation.suppressResponseAfterCancel to true', kind: 'quickfix', isPreferred: true },
    ]);
    const claim = actionsOf(makeFinding({ ...base, claimFix: { set: true, replacement }, suggestion: { set: 5, replacement } }));
    expect(claim.map(({ title, kind, isPreferred }) => ({ title, kind, isPreferred }))).toEqual([
      { title: 'claims cancellation.suppressResponseAfterCancel: true; make the server do it', kind: 'quickfix', isPreferred: false },
      { title: 'Suggested: set cancellation.suppressResponseAfterCancel to 5 (check the value)', kind: 'quickfix', isPreferred: false },
    ]);
    const removal = actionsOf(
      makeFinding({ ...base, path: '/operations/0/cancellation/serverSendsCancelled', claimFix: { remove: true, replacement } }),
    );
    expect(removal[0]!.title).toBe('no longer claims cancellation.serverSendsCancelled; make the server do it');
  });
});
