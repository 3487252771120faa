// The Node API in-process: each function returns what its command prints, as data (ids, counts, exit codes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { audit, catalog, evidence, lint, probe, probeClient, review, verify } from '../../src/api/index.js';
import { REPO_ROOT } from '../helpers/run-cli.js';
import { traceHeaderLine, traceMessageLine } from '../../src/judges/trace-format.js';

const COMPLETE = 'fixtures/examples/billing.yaml';
const NO_MAX_TIMEOUT = 'fixtures/examples/flawed/no-max-timeout.yaml';
const work = mkdtempSync(join(tmpdir(), 'mcprely-api-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ruleIds = (outcome: Awaited<ReturnType<typeof lint>>) =>
  outcome.ok ? outcome.result.files.map((file) => [file.file, file.findings.map((finding) => finding.ruleId)]) : outcome.problem;

describe('lint', () => {
  it('reports each file and the exit code the command gives', async () => {
    const outcome = await lint({ paths: [COMPLETE, NO_MAX_TIMEOUT], config: false });
    expect(ruleIds(outcome)).toEqual([
      [COMPLETE, []],
      [NO_MAX_TIMEOUT, ['deadline-max-required']],
    ]);
    expect(outcome.ok && outcome.exitCode).toBe(1);
    expect(outcome.ok && (await outcome.rules()).some((rule) => rule.id === 'deadline-max-required')).toBe(true);
  });

  it('lints a manifest given as text, under the name given', async () => {
    const outcome = await lint({ paths: [], text: { file: 'given.yaml', content: readFileSync(NO_MAX_TIMEOUT, 'utf8') }, config: false });
    expect(ruleIds(outcome)).toEqual([['given.yaml', ['deadline-max-required']]]);
  });

  it('a text past the manifest bound is refused as a file would be (an input error, exit 2)', async () => {
    const outcome = await lint({ paths: [], text: { file: 'big.yaml', content: 'x'.repeat(2 * 1024 * 1024 + 1) }, config: false });
    expect(outcome.ok && [outcome.exitCode, outcome.result.files[0]?.findings.map((finding) => finding.messageId)]).toEqual([
      2,
      ['too-large'],
    ]);
  });

  it('failSeverity and quiet shape the result as the flags do', async () => {
    const config = join(work, 'warn.yaml');
    writeFileSync(config, 'rules:\n  deadline-max-required: warn\n');
    const warned = await lint({ paths: [NO_MAX_TIMEOUT], config });
    expect(warned.ok && [warned.result.summary.warnings, warned.exitCode]).toEqual([1, 0]);
    const failing = await lint({ paths: [NO_MAX_TIMEOUT], config, failSeverity: 'warn' });
    expect(failing.ok && failing.exitCode).toBe(1);
    const tooMany = await lint({ paths: [NO_MAX_TIMEOUT], config, maxWarnings: 0 });
    expect(tooMany.ok && tooMany.exitCode).toBe(1);
    const quiet = await lint({ paths: [NO_MAX_TIMEOUT], config, quiet: true, failSeverity: 'warn' });
    expect(quiet.ok && [quiet.result.summary.warnings, quiet.exitCode]).toEqual([0, 0]);
  });

  it('a configuration that cannot be used is a problem, not a throw', async () => {
    const outcome = await lint({ paths: [COMPLETE], config: join(work, 'absent.yaml') });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.problem).toContain('absent.yaml');
  });

  it('paths are relative to cwd', async () => {
    const outcome = await lint({ paths: ['billing.yaml'], cwd: 'fixtures/examples', config: false });
    expect(ruleIds(outcome)).toEqual([['billing.yaml', []]]);
  });
});

describe('review and verify', () => {
  it('review: the complete example is production-ready (exit 0) and every fixture ran', async () => {
    const told: string[] = [];
    const outcome = await review({ manifest: COMPLETE, config: false, onProgress: (_index, _total, label) => told.push(label) });
    if (!outcome.ok) throw new Error(outcome.problem);
    expect([outcome.exitCode, outcome.review.productionReady]).toEqual([0, true]);
    expect(told).toEqual(outcome.runs.map((run) => run.fixture.id));
  });

  it('review: a manifest that cannot be read is a problem', async () => {
    const outcome = await review({ manifest: join(work, 'absent.yaml') });
    expect(outcome.ok).toBe(false);
  });

  it('verify: a flawed manifest fails its fixture (exit 1); each run is handed over as it ends', async () => {
    const runs: string[] = [];
    const outcome = await verify({ paths: [NO_MAX_TIMEOUT], onRun: (run) => runs.push(run.fixture.id) });
    if (!outcome.ok || outcome.on !== 'reference') throw new Error(JSON.stringify(outcome));
    expect(outcome.exitCode).toBe(1);
    expect(outcome.summary.failed).toBeGreaterThan(0);
    expect(runs).toEqual(outcome.outcome.runs.map(({ run }) => run.fixture.id));
  });

  it('verify against a server takes one manifest', async () => {
    const outcome = await verify({ paths: [COMPLETE, NO_MAX_TIMEOUT], server: { stdio: 'node server.js' } });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && outcome.problem).toMatch(/one manifest/);
  });
});

describe('evidence', () => {
  it('writes the bundle and says what it holds', async () => {
    const output = join(work, 'bundle');
    const outcome = await evidence({ manifest: COMPLETE, output, config: false });
    if (!outcome.ok) throw new Error(outcome.problem);
    expect([outcome.exitCode, outcome.written.productionReady, outcome.written.failed]).toEqual([0, true, 0]);
    expect(readFileSync(join(output, 'index.md'), 'utf8')).toContain('production-ready');
  });
});

describe('live commands refuse what they cannot run, before starting anything', () => {
  it('probe: exactly one of stdio and url', async () => {
    const outcome = await probe({});
    expect(!outcome.ok && outcome.problem).toMatch(/--stdio/);
  });

  it('probeClient: one way to meet the client', async () => {
    const outcome = await probeClient({ listen: '127.0.0.1:0', run: undefined, stdio: { input: process.stdin, output: process.stdout } });
    expect(!outcome.ok && outcome.problem).toMatch(/one way to meet the client/);
  });
});

describe('audit', () => {
  const header = traceHeaderLine({ mcprelyTrace: 1, transport: 'stdio', started: '2026-12-02T10:00:00.000Z', server: 'node' });

  it('a trace that cannot be read is a trace-file finding (exit 2); the others are still judged', () => {
    const answered = join(work, 'answered.jsonl');
    writeFileSync(
      answered,
      header +
        traceMessageLine(1, 'client', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}', true) +
        traceMessageLine(2, 'server', '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}', true),
    );
    const outcome = audit({ traces: [join(work, 'absent.jsonl'), answered] });
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(outcome.exitCode).toBe(2);
    expect(outcome.traces.map((trace) => [trace.findings.map((finding) => finding.ruleId), trace.verdict !== undefined])).toEqual([
      [['trace-file'], false],
      [[], true],
    ]);
  });

  it('a manifest that cannot be used is a problem', () => {
    const outcome = audit({ traces: [], manifest: join(work, 'absent.yaml') });
    expect(outcome.ok).toBe(false);
  });
});

describe('catalog', () => {
  it('every kind of check, with a page each; the user rules of a configuration among them', async () => {
    const outcome = await catalog({ config: false });
    if (!outcome.ok) throw new Error(outcome.problem);
    const kinds = new Set(outcome.entries.map((entry) => entry.kind));
    expect([...kinds]).toEqual(['lint-rule', 'input-rule', 'drift-rule', 'session-judge', 'probe-check', 'client-scenario']);
    const judge = outcome.entries.find((entry) => entry.id === 'server-silent-after-cancel');
    expect(judge).toMatchObject({ kind: 'session-judge', party: 'server' });
    expect(judge?.page().split('\n')[0]).toBe('# server-silent-after-cancel');
  });

  it('a configuration that cannot be used is a problem, not a throw', async () => {
    const config = join(work, 'broken.config.yaml');
    writeFileSync(config, 'ruleFolders: [');
    const outcome = await catalog({ config });
    expect(outcome.ok).toBe(false);
  });
});

describe('the built API module', () => {
  it('loads no native addon until a ledger is opened (importing it opens no better-sqlite3)', () => {
    const script =
      "import { createRequire } from 'node:module';" +
      'await import(process.argv[1]);' +
      'const cache = createRequire(import.meta.url).cache;' +
      "console.log(Object.keys(cache).filter((path) => path.includes('better-sqlite3')).length);";
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, join(REPO_ROOT, 'dist/api.js')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('0');
  });
});
