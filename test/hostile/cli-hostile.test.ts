import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT, runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { CHOSEN, chosenInputs, everyCommandOn, IN_NPM_TEST } from './cli-hostile-inputs.js';

const root = mkdtempSync(join(tmpdir(), 'mcprely-hostile-cli-'));
const inputs = chosenInputs();

describe.concurrent('hostile inputs on the command line: exit 0, 1 or 2, no internal error, nothing raw, in bounds', () => {
  it('covers every chosen input, and npm test runs some of them', () => {
    expect(inputs.map((input) => input.name).sort()).toEqual([...CHOSEN].sort());
    expect(IN_NPM_TEST.filter((name) => !CHOSEN.includes(name))).toEqual([]);
  });

  it.each(inputs.filter((input) => IN_NPM_TEST.includes(input.name)).map((input) => [input.name, input] as const))(
    '%s',
    { timeout: 120_000 },
    async (_name, input) => everyCommandOn(input, root),
  );
});

describe('outputs a user can get wrong: a clear message and exit 2, never an internal error, nothing of theirs lost', () => {
  const example = 'fixtures/examples/billing.yaml';

  it.each([
    [
      'a folder where a file was meant',
      (dir: string) => ['lint', example, '-f', 'sarif', '-o', dir],
      /is a folder; give the output a file name/,
    ],
    [
      'a missing folder',
      (dir: string) => ['review', example, '-o', join(dir, 'no', 'such', 'review.md')],
      /a folder on the path does not exist/,
    ],
    [
      'a file as a folder on the path',
      (dir: string) => ['review', example, '-o', join(dir, 'file.txt', 'review.md')],
      /a part of the path is a file/,
    ],
    ['a full disk', () => ['lint', example, '-f', 'json', '-o', '/dev/full'], /no space is left on the device/],
    [
      'a folder for --write-baseline',
      (dir: string) => ['lint', example, '--write-baseline', dir],
      /is a folder; give the baseline a file name/,
    ],
    ['an empty evidence folder name', () => ['evidence', example, '-o', ''], /the evidence folder \(-o\) is an empty path/],
    ['an empty fixtures folder name', () => ['fixtures', example, '-o', ''], /the fixtures folder \(-o\) is an empty path/],
    ['a file as the evidence folder', (dir: string) => ['evidence', example, '-o', join(dir, 'file.txt')], /is not a folder/],
    ['/dev/null as the evidence folder', () => ['evidence', example, '-o', '/dev/null'], /is not a folder/],
    [
      'a file as the fixtures folder',
      (dir: string) => ['fixtures', example, '-o', join(dir, 'file.txt')],
      /cannot create the output folder|is not a folder/,
    ],
  ])('%s', async (_name, args, message) => {
    const dir = mkdtempSync(join(root, 'out-'));
    writeFileSync(join(dir, 'file.txt'), 'mine');
    const run = await runCliAsync(args(dir));
    expect(run.stderr, run.stdout).toMatch(message);
    expect(run.status).toBe(2);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(showsStackTrace(run.stderr)).toBe(false);
    expect(readFileSync(join(dir, 'file.txt'), 'utf8')).toBe('mine');
  });

  it('a pipe nobody reads is refused at once instead of waiting for ever', async () => {
    const dir = mkdtempSync(join(root, 'fifo-'));
    const fifo = join(dir, 'pipe');
    await new Promise((resolve) => spawn('mkfifo', [fifo]).on('close', resolve));
    const run = await runCliAsync(['lint', example, '-f', 'json', '-o', fifo], { timeoutMs: 20_000 });
    expect(run.stderr).toMatch(/no process is reading the pipe/);
    expect(run.status).toBe(2);
  });

  it('a reader that goes away (| head) ends the run quietly, with the exit code it earned', async () => {
    const many = join(mkdtempSync(join(root, 'epipe-')), 'many.yaml');
    let text = 'mcprely: 1\nspecVersion: "2026-07-28"\nserver: { name: s, transports: [stdio] }\noperations:\n';
    for (let index = 0; index < 3000; index++) text += `  - { name: op${index}, method: tools/call }\n`;
    writeFileSync(many, text);
    const child = spawn(process.execPath, [CLI, 'lint', many], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(1);
  });
});

describe('evidence -o: replaces only its own files, atomically, one run at a time', () => {
  const example = 'fixtures/examples/billing.yaml';

  it('keeps files a user added beside an earlier bundle, and replaces the bundle', async () => {
    const dir = join(mkdtempSync(join(root, 'ev-')), 'bundle');
    expect((await runCliAsync(['evidence', example, '-o', dir])).status).toBe(0);
    writeFileSync(join(dir, 'my-notes.md'), 'mine');
    mkdirSync(join(dir, 'transcripts', 'mine'));
    writeFileSync(join(dir, 'transcripts', 'mine', 'keep.txt'), 'mine too');
    const again = await runCliAsync(['evidence', example, '-o', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(dir, 'my-notes.md'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'transcripts', 'mine', 'keep.txt'), 'utf8')).toBe('mine too');
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { files: string[] };
    for (const file of index.files) expect(readFileSync(join(dir, file)).length, file).toBeGreaterThan(0);
  });

  it('refuses a forged index.json (no list of its files) beside the user files, and deletes nothing', async () => {
    const dir = mkdtempSync(join(root, 'forged-'));
    writeFileSync(join(dir, 'index.json'), '{"mcprelyEvidence":1}');
    writeFileSync(join(dir, 'thesis.tex'), 'years of work');
    const run = await runCliAsync(['evidence', example, '-o', dir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/holds no earlier mcprely evidence bundle/);
    expect(readFileSync(join(dir, 'thesis.tex'), 'utf8')).toBe('years of work');
  });

  it('refuses an index.json whose file list reaches outside the folder', async () => {
    const dir = mkdtempSync(join(root, 'outside-'));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ mcprelyEvidence: 1, files: ['../victim.txt', 'index.json'] }));
    writeFileSync(join(root, 'victim.txt'), 'safe');
    const run = await runCliAsync(['evidence', example, '-o', dir]);
    expect(run.status).toBe(2);
    expect(readFileSync(join(root, 'victim.txt'), 'utf8')).toBe('safe');
  });

  it('refuses a symbolic link as the folder', async () => {
    const dir = mkdtempSync(join(root, 'link-'));
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const run = await runCliAsync(['evidence', example, '-o', join(dir, 'link')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/is a symbolic link/);
  });

  it('an index.json of 2 MiB is not read whole: the folder is refused', async () => {
    const dir = mkdtempSync(join(root, 'big-index-'));
    writeFileSync(join(dir, 'index.json'), `{"mcprelyEvidence":1,"files":[${'"x",'.repeat(500_000)}"index.json"]}`);
    const run = await runCliAsync(['evidence', example, '-o', dir]);
    expect(run.status).toBe(2);
  });

  it('two runs into one folder at once: both succeed in turn and the bundle is whole', { timeout: 60_000 }, async () => {
    const dir = join(mkdtempSync(join(root, 'twice-')), 'bundle');
    const runs = await Promise.all([runCliAsync(['evidence', example, '-o', dir]), runCliAsync(['evidence', example, '-o', dir])]);
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { files: string[] };
    expect(index.files.length).toBeGreaterThan(40);
    for (const file of index.files) expect(readFileSync(join(dir, file)).length, file).toBeGreaterThan(0);
    expect(readdirSync(join(dir, '..')).filter((name) => name.includes('mcprely'))).toEqual([]);
  });
});

describe('fixture files a user wrote: limits on the work they ask for, refused at the place', () => {
  const dir = mkdtempSync(join(root, 'fixture-files-'));
  const written = async () => {
    const run = await runCliAsync(['fixtures', 'fixtures/examples/billing.yaml', '-o', join(dir, 'generated')]);
    expect(run.status).toBe(0);
    return (kind: string) => JSON.parse(readFileSync(join(dir, 'generated', 'charge_account', `${kind}.json`), 'utf8'));
  };

  it.each([
    [
      'a race of 2000 connections (each a thread)',
      (read: (kind: string) => { steps: Record<string, unknown>[] }) => {
        const fixture = read('two-connections-race-one-key');
        fixture.steps[0]!['connections'] = Array.from({ length: 2000 }, (_, index) => `c${index}`);
        return fixture;
      },
      /steps\[0\]\.connections lists 2000 items; at most 16 are allowed/,
    ],
    [
      'an idempotency key of 300 characters',
      (read: (kind: string) => { steps: Record<string, unknown>[] }) => {
        const fixture = read('one-key-identical-arguments');
        for (const step of fixture.steps) if (step['key'] !== undefined) step['key'] = 'k'.repeat(300);
        return fixture;
      },
      /steps\[0\]\.key is longer than 255 characters/,
    ],
    [
      '25 000 steps',
      (read: (kind: string) => { steps: Record<string, unknown>[] }) => {
        const fixture = read('stdio-cancel-before-completion');
        fixture.steps = [
          { at: 0, do: 'start', request: 'r1' },
          ...Array.from({ length: 25_000 }, (_, at) => ({ at, do: 'tick', request: 'r1' })),
        ];
        return fixture;
      },
      /steps lists 25001 items; at most 20000 are allowed/,
    ],
  ])('%s', async (name, edit, message) => {
    const read = await written();
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    const fixture = edit(read) as { manifest?: string };
    fixture.manifest = '../../../fixtures/examples/billing.yaml';
    writeFileSync(file, JSON.stringify(fixture));
    const run = await runCliAsync(['verify', file], { nodeOptions: ['--max-old-space-size=256'] });
    expect(run.stdout + run.stderr).toMatch(message);
    expect(run.status).toBe(2);
    expect(run.stdout + run.stderr).not.toMatch(/internal error/);
  });

  it('a manifest whose file name holds a newline and a pipe stays one row of the Markdown table', async () => {
    const folder = mkdtempSync(join(root, 'names-'));
    const file = join(folder, 'evil\n| forged | row |.yaml');
    writeFileSync(file, 'mcprely: 1\n');
    const run = await runCliAsync(['lint', file, '-f', 'markdown']);
    const rows = run.stdout.split('\n').filter((line) => line.startsWith('| '));
    expect(rows.length).toBeGreaterThan(1);
    // Every row has its four cells: the pipes of the name are escaped, its newline is shown, not made.
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(6);
    expect(run.stdout).not.toMatch(/^\| forged \| row \|/m);
  });

  it('a file whose size stat reports as 0 but that never ends is not read without bound', async () => {
    const run = await runCliAsync(['lint', '/proc/self/pagemap', '/dev/zero'], {
      nodeOptions: ['--max-old-space-size=128'],
      timeoutMs: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.ms).toBeLessThan(10_000);
    expect(run.stdout).toMatch(/^\/dev\/zero\n {2}0:0 {2}error {2}The path is not a regular file/m);
  });
});
