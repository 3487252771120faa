import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifest } from '../helpers/lint-text.js';
import { runCli } from '../helpers/run-cli.js';

const FLAWED = 'fixtures/examples/flawed/no-max-timeout.yaml';
const tmp = () => mkdtempSync(join(tmpdir(), 'mcprely-flags-'));

/** A manifest whose only findings are one warning (retry-backoff) and one info (deadline-long-suggests-task). */
function warningsOnly(dir: string): string {
  const file = join(dir, 'warnings.yaml');
  writeFileSync(
    file,
    manifest({
      operations: [
        '  - name: search',
        '    method: tools/call',
        '    sideEffect: none',
        '    timeouts: { idleMs: 1000, maxMs: 600000, cancelOnTimeout: true }',
        '    cancellation: { stopsWork: immediately, suppressResponseAfterCancel: true, invalidOrLate: ignore }',
        '    retry: { automatic: on-timeout, maxAttempts: 11, backoff: { baseMs: 100, capMs: 1000, jitter: full } }',
      ].join('\n'),
    }),
  );
  return file;
}

describe('lint flags', () => {
  it('writes several formats, each to its own --output, and one to standard output', () => {
    const dir = tmp();
    const run = runCli([
      'lint',
      FLAWED,
      '--format',
      'sarif',
      '--output',
      join(dir, 'out.sarif'),
      '--format',
      'junit',
      '-o',
      join(dir, 'out.xml'),
      '--format',
      'github',
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=fixtures\/examples\/flawed\/no-max-timeout\.yaml,line=16,col=5,/);
    expect(JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(readFileSync(join(dir, 'out.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('refuses two formats on standard output, and an unknown format, with exit 2', () => {
    const both = runCli(['lint', FLAWED, '--format', 'json', '--format', 'sarif']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/only one format can write to standard output; give sarif an --output file/);
    const unknown = runCli(['lint', FLAWED, '--format', 'xml']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--format xml is not one of stylish, json, sarif, github, junit, markdown/);
  });

  it('fails on errors by default, and on warnings with --fail-severity warn or --max-warnings', () => {
    const file = warningsOnly(tmp());
    const plain = runCli(['lint', file]);
    expect(plain.status, plain.stdout).toBe(0);
    expect(plain.stdout).toMatch(/^✖ 2 problems \(0 errors, 1 warning, 1 info\)$/m);
    expect(runCli(['lint', file, '--fail-severity', 'warn']).status).toBe(1);
    expect(runCli(['lint', file, '--fail-severity', 'info']).status).toBe(1);
    expect(runCli(['lint', file, '--max-warnings', '0']).status).toBe(1);
    expect(runCli(['lint', file, '--max-warnings', '1']).status).toBe(0);
    expect(runCli(['lint', file, '--max-warnings', 'many']).status).toBe(2);
  });

  it('--quiet reports errors only', () => {
    const file = warningsOnly(tmp());
    const quiet = runCli(['lint', file, '--quiet', '--format', 'json']);
    expect(JSON.parse(quiet.stdout).files[0].findings).toEqual([]);
  });

  it('colours stylish output when forced, never with NO_COLOR', () => {
    expect(runCli(['lint', FLAWED], { env: { FORCE_COLOR: '1', NO_COLOR: '' } }).stdout).toContain('\u001b[31merror');
    expect(runCli(['lint', FLAWED], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toContain('\u001b[');
  });
});

describe('baseline', () => {
  it('lets an existing service adopt mcprely: accepted findings are suppressed, new ones fail', () => {
    const dir = tmp();
    const file = join(dir, 'service.yaml');
    const op = (name: string) =>
      `  - name: ${name}\n    method: tools/call\n    sideEffect: mutation\n    retry: { automatic: on-timeout }`;
    writeFileSync(file, manifest({ operations: [op('charge'), op('refund')].join('\n') }));
    const baseline = join(dir, 'baseline.json');
    const written = runCli(['lint', 'service.yaml', '--write-baseline', baseline], { cwd: dir });
    expect(written.status, written.stdout).toBe(0);
    const entries = JSON.parse(readFileSync(baseline, 'utf8')).findings as { file: string; path: string }[];
    expect(entries.length).toBeGreaterThan(4);
    expect(entries.every((entry) => entry.file === 'service.yaml')).toBe(true);
    expect(entries.some((entry) => entry.path.startsWith('/operations/charge'))).toBe(true);

    // Reordering the operations keeps every finding matched: entries name operations, not positions.
    writeFileSync(file, manifest({ operations: [op('refund'), op('charge')].join('\n') }));
    const same = runCli(['lint', 'service.yaml', '--baseline', baseline, '--format', 'json'], { cwd: dir });
    expect(same.status, same.stdout).toBe(0);
    const report = JSON.parse(same.stdout);
    expect(report.summary.suppressed).toBe(entries.reduce((sum, entry) => sum + (entry as unknown as { count: number }).count, 0));

    // A new operation with the same flaw is not covered.
    writeFileSync(file, manifest({ operations: [op('refund'), op('charge'), op('payout')].join('\n') }));
    const grown = runCli(['lint', 'service.yaml', '--baseline', baseline, '--format', 'json'], { cwd: dir });
    expect(grown.status).toBe(1);
    const live = JSON.parse(grown.stdout).files[0].findings.filter(
      (finding: { suppression?: unknown }) => finding.suppression === undefined,
    );
    expect(new Set(live.map((finding: { data: { operation: string } }) => finding.data.operation))).toEqual(new Set(['payout']));
  });

  it('says where it wrote the baseline; reports stale entries, and --prune-baseline removes them', () => {
    const dir = tmp();
    const file = join(dir, 'service.yaml');
    const op = (name: string) =>
      `  - name: ${name}\n    method: tools/call\n    sideEffect: mutation\n    retry: { automatic: on-timeout }`;
    writeFileSync(file, manifest({ operations: [op('charge'), op('refund')].join('\n') }));
    const written = runCli(['lint', 'service.yaml', '--write-baseline', 'baseline.json'], { cwd: dir });
    expect(written.stderr).toMatch(/wrote the baseline baseline\.json: \d+ findings accepted in \d+ entries/);
    const before = (JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).findings as unknown[]).length;
    // refund is gone: its accepted findings are stale.
    writeFileSync(file, manifest({ operations: op('charge') }));
    const stale = runCli(['lint', 'service.yaml', '--baseline', 'baseline.json'], { cwd: dir });
    expect(stale.status, stale.stdout).toBe(0);
    expect(stale.stderr).toMatch(
      /the baseline baseline\.json has \d+ stale entr(y|ies) \(accepted findings no longer found\), e\.g\. service\.yaml .*refund.*--prune-baseline/,
    );
    const pruned = runCli(['lint', 'service.yaml', '--baseline', 'baseline.json', '--prune-baseline'], { cwd: dir });
    expect(pruned.stderr).toMatch(/pruned the baseline baseline\.json: \d+ stale entr(y|ies) removed/);
    const after = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).findings as { path: string }[];
    expect(after.length).toBeLessThan(before);
    expect(after.some((entry) => entry.path.includes('refund'))).toBe(false);
    expect(runCli(['lint', 'service.yaml', '--baseline', 'baseline.json'], { cwd: dir }).stderr).not.toMatch(/stale/);
  });

  it('refuses a file that is not a baseline, with exit 2', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'bad.json'), '{"version": 2}');
    const run = runCli(['lint', 'fixtures/examples/billing.yaml', '--baseline', join(dir, 'bad.json')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/not an mcprely baseline/);
  });
});

describe('mcprely rules', () => {
  it('lists the rules by area', () => {
    const run = runCli(['rules']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^manifest\n {2}manifest-placeholders .*\n {2}operation-names-unique/);
    for (const area of ['cancellation', 'deadlines', 'progress', 'retry', 'idempotency', 'flow-control', 'recovery', 'tasks'])
      expect(run.stdout).toMatch(new RegExp(`^${area}$`, 'm'));
  });

  it('prints one rule page, with what mcprely reports on its examples', () => {
    const run = runCli(['rules', 'deadline-max-required']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^# deadline-max-required\n/);
    expect(run.stdout).toMatch(/SHOULD always enforce a maximum timeout/);
    expect(run.stdout).toMatch(/mcprely reports:\n\n```text\n7:5 error export_report has no maximum timeout/);
  });

  it("prints the page of any kind in the catalog: a probe check's, a probe-client scenario's", () => {
    expect(runCli(['rules', 'probe-wire']).stdout).toMatch(/^# probe-wire\n\n\*\*Area:\*\* probe /);
    expect(runCli(['rules', 'never_answers']).stdout).toMatch(
      /^# never_answers\n[\s\S]*## Decided by\n\n- \[`client-cancels-on-idle-timeout`\]/,
    );
  });

  it('suggests the closest id for an unknown one, with exit 2', () => {
    const run = runCli(['rules', 'deadline-max-require']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('error: no rule named deadline-max-require (did you mean deadline-max-required?); mcprely rules lists them\n');
  });
});

describe('a SARIF log to a file is written while linting', () => {
  it('is the same log as on standard output, with the baseline and --quiet applied, and the same exit code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcprely-sarif-stream-'));
    cpSync('fixtures/examples', join(dir, 'examples'), { recursive: true });
    runCli(['lint', 'examples', '--write-baseline', 'baseline.json', '-f', 'json', '-o', 'all.json'], { cwd: dir });
    writeFileSync(
      join(dir, 'examples', 'billing.yaml'),
      readFileSync('fixtures/examples/billing.yaml', 'utf8').replace('invalidOrLate: ignore', 'invalidOrLate: error-response'),
    );
    for (const extra of [[], ['--baseline', 'baseline.json'], ['--baseline', 'baseline.json', '--quiet']]) {
      const toStdout = runCli(['lint', 'examples', ...extra, '-f', 'sarif'], { cwd: dir });
      const toFile = runCli(['lint', 'examples', ...extra, '-f', 'sarif', '-o', 'log.sarif'], { cwd: dir });
      expect(readFileSync(join(dir, 'log.sarif'), 'utf8'), extra.join(' ')).toBe(toStdout.stdout);
      expect(toFile.status).toBe(toStdout.status);
    }
    // With the baseline, only the new findings count (the changed default reaches every operation that inherits it).
    const log = JSON.parse(readFileSync(join(dir, 'log.sarif'), 'utf8')) as {
      runs: { results: { ruleId: string; suppressions?: unknown[] }[] }[];
    };
    const open = log.runs[0]!.results.filter((result) => result.suppressions === undefined).map((result) => result.ruleId);
    expect(open.length).toBeGreaterThan(0);
    expect(new Set(open)).toEqual(new Set(['cancel-invalid-ignored']));
  });
});
