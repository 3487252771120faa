// The storm: 8 processes × 2 000 charges over 500 shared keys, released together, each with its own
// connection to one ledger file. Correct means exactly 500 executions and no errors.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MutationLedger } from '../../dist/reference.js';

const PROCESSES = Number(process.env.PROCESSES ?? 8);
const CHARGES = Number(process.env.CHARGES ?? 2000);
const KEYS = Number(process.env.KEYS ?? 500);
const path = join(mkdtempSync(join(tmpdir(), 'mcprely-storm-')), 'ledger.sqlite');
MutationLedger.open(path, { create: true }).close();

const worker = fileURLToPath(new URL('./storm-worker.mjs', import.meta.url));
const children = Array.from({ length: PROCESSES }, (_, index) =>
  spawn(process.execPath, [worker, path, String(index), String(CHARGES), String(KEYS)], { stdio: ['pipe', 'pipe', 'inherit'] }),
);
const outputs = children.map(
  (child) =>
    new Promise((resolve) => {
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('close', () => resolve(JSON.parse(text.trim().split('\n').at(-1))));
    }),
);
await Promise.all(children.map((child) => new Promise((resolve) => child.stdout.once('data', resolve))));
const start = process.hrtime.bigint();
for (const child of children) child.stdin.write('go\n');
const results = await Promise.all(outputs);
const wallMs = Number(process.hrtime.bigint() - start) / 1e6;

const ledger = MutationLedger.open(path);
const executions = ledger.executionCount();
ledger.close();
const commits = results.reduce((sum, result) => sum + result.commits, 0);
const replays = results.reduce((sum, result) => sum + result.replays, 0);
const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
console.log(`\nStorm: ${PROCESSES} processes × ${CHARGES} charges over ${KEYS} shared keys, one ledger file`);
for (const [index, result] of results.entries()) {
  console.log(
    `  process ${index}: ${result.commits} commits, ${result.replays} replays, ${result.errorCount} errors, ` +
      `${result.ms.toFixed(0)} ms${result.errors.length ? ` (${result.errors[0]})` : ''}`,
  );
}
console.log(
  `  total: ${PROCESSES * CHARGES} charges in ${wallMs.toFixed(0)} ms (${(((PROCESSES * CHARGES) / wallMs) * 1000).toFixed(0)}/s), ` +
    `${commits} commits, ${replays} replays, ${errors} errors`,
);
console.log(
  `  executions recorded in the ledger: ${executions} (expected exactly ${KEYS}) ${executions === KEYS && errors === 0 && commits === KEYS ? 'ok' : 'WRONG'}`,
);
process.exitCode = executions === KEYS && errors === 0 && commits === KEYS ? 0 : 1;
