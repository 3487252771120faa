import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCliAsync, showsStackTrace } from '../helpers/run-cli.js';
import { type HostileInput, hostileInputs, RAW_CONTROL } from './hostile-inputs.js';

/** One input of each class that reaches each stage, and the worst of each. */
export const CHOSEN = [
  'buffer capacity 9007199254740991',
  'buffer capacity 9007199254740993',
  'buffer capacity 0',
  'idle 1 ms under a maximum of 100000000 ms',
  'keep-alive 1 ms behind a proxy idle of 10^15 ms',
  'backoff cap 0',
  'backoff base 1e300',
  'a forged finding line in the unknown key',
  'escape sequences in the server name',
  'right-to-left override in the operation description',
  'C1 control in the refetch entry',
  'a Markdown table row in the ignore reason',
  'toString in an operation',
  'a 900 KB string aliased 200 times',
  '1000 operations',
  'a 5000-character operation name',
  'operation named "../../escaped"',
  'operation named "/abs"',
  'only ---',
  'a file over the size limit',
  'invalid UTF-8',
];

/**
 * The chosen inputs npm test runs through every command: what only the command line does (the files it writes stay in
 * their folder, what it prints carries nothing raw, an input it refuses). The rest run in npm run test:live
 * (test/hostile/cli-hostile-inputs.test.ts); test/hostile/in-process.test.ts puts every hostile input through every
 * stage in process.
 */
export const IN_NPM_TEST = [
  'operation named "../../escaped"',
  'escape sequences in the server name',
  'right-to-left override in the operation description',
  'a file over the size limit',
];

export const chosenInputs = (): HostileInput[] => hostileInputs().filter((input) => CHOSEN.includes(input.name));

/** Every command on the input, as a user runs it, with a heap of 384 MB: a run over that bound dies and fails the test. */
function commands(file: string, out: string): Record<string, string[]> {
  return {
    lint: ['lint', file],
    review: ['review', file],
    fixtures: ['fixtures', file, '-o', join(out, 'fixtures')],
    verify: ['verify', file],
    evidence: ['evidence', file, '-o', join(out, 'evidence')],
  };
}

/**
 * Every command on one input, as a user runs it, with a heap of 384 MB: exit 0, 1 or 2, no internal error, nothing
 * raw, in bounds, and every file it writes inside its output folder (a folder of its own under `root`).
 */
export async function everyCommandOn(input: HostileInput, root: string): Promise<void> {
  const out = mkdtempSync(join(root, 'run-'));
  const file = join(out, 'manifest.yaml');
  writeFileSync(file, input.bytes);
  for (const [command, args] of Object.entries(commands(file, out))) {
    const run = await runCliAsync(args, { nodeOptions: ['--max-old-space-size=384'], timeoutMs: 60_000 });
    const all = run.stdout + run.stderr;
    expect([0, 1, 2], `${command}: exit ${run.status}\n${run.stderr.slice(0, 400)}`).toContain(run.status);
    expect(all, command).not.toMatch(/internal error/);
    expect(showsStackTrace(all), command).toBe(false);
    const raw = all.split('\n').find((line) => RAW_CONTROL.test(line));
    expect(raw === undefined ? undefined : JSON.stringify(raw.slice(0, 200)), command).toBeUndefined();
    expect(run.ms, command).toBeLessThan(30_000);
  }
  // Whatever the operations are called, every file stays inside the output folder.
  for (const folder of ['fixtures', 'evidence'])
    for (const entry of listAll(join(out, folder))) expect(entry.startsWith(join(out, folder)), entry).toBe(true);
  expect(readdirSync(out).sort()).toEqual(expect.arrayContaining(['manifest.yaml']));
  expect(readdirSync(out).every((name) => ['manifest.yaml', 'fixtures', 'evidence'].includes(name))).toBe(true);
}

function listAll(folder: string): string[] {
  try {
    return readdirSync(folder, { recursive: true, withFileTypes: true }).map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
