// The ledger under SIGKILL: for a bounded time, several processes charge a fixed set of keys on one ledger
// file while the test kills one of them at a random moment every few milliseconds and starts another. Then
// every key is replayed. Exact means: no key executed twice, every committed execution has its receipt,
// the counter equals the receipts, and each replay returns the stored result without executing.
//   node scripts/ledger-kill-test.mjs [--seconds 20] [--processes 4] [--keys 5000]
// Prints a summary; exits 1 if the ledger is not exact. Needs dist/ (node scripts/build.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { chargeAccount, MutationLedger } from '../dist/reference.js';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const SECONDS = option('seconds', 20);
const PROCESSES = option('processes', 4);
const KEYS = option('keys', 5000);

const folder = mkdtempSync(join(tmpdir(), 'mcprely-kill-'));
const path = join(folder, 'ledger.sqlite');
MutationLedger.open(path, { create: true }).close();
const worker = fileURLToPath(new URL('./ledger-kill-worker.mjs', import.meta.url));

let kills = 0;
const live = new Set();
function start() {
  const child = spawn(process.execPath, [worker, path, String(KEYS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.on('close', (code, signal) => {
    live.delete(child);
    // A worker may only end by our SIGKILL: anything else (an error in the ledger) fails the test.
    if (signal !== 'SIGKILL') failures.push(`a worker ended by itself (${code ?? signal}): ${stderr.slice(0, 300)}`);
  });
  live.add(child);
}
const failures = [];
for (let index = 0; index < PROCESSES; index++) start();
const deadline = Date.now() + SECONDS * 1000;
while (Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 60));
  const victims = [...live];
  const victim = victims[Math.floor(Math.random() * victims.length)];
  if (victim === undefined) continue;
  victim.kill('SIGKILL');
  kills++;
  start();
}
for (const child of live) child.kill('SIGKILL');
await new Promise((resolve) => setTimeout(resolve, 300));

// The file as it was left: receipts per key, the counter, the records.
const db = new Database(path, { readonly: true });
const twice = db.prepare('SELECT idempotency_key AS key, COUNT(*) AS n FROM effects GROUP BY idempotency_key HAVING n > 1').all();
const receipts = db.prepare('SELECT COUNT(*) AS n FROM effects').get().n;
const counter = db.prepare('SELECT executions AS n FROM execution_counter').get().n;
const records = db.prepare('SELECT COUNT(*) AS n FROM idempotency_records').get().n;
const integrity = db.pragma('integrity_check', { simple: true });
db.close();
if (twice.length > 0) failures.push(`${twice.length} key(s) executed more than once, e.g. ${JSON.stringify(twice[0])}`);
if (receipts !== counter) failures.push(`${receipts} receipts but the counter says ${counter} executions`);
if (records !== receipts) failures.push(`${records} records but ${receipts} receipts`);
if (integrity !== 'ok') failures.push(`integrity_check: ${integrity}`);

// Every key replayed: a committed key returns its stored result without executing; the rest execute once now.
const ledger = MutationLedger.open(path);
const before = ledger.executionCount();
let replayed = 0;
for (let key = 0; key < KEYS; key++) {
  const first = ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
  const again = ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
  if (first.replayed) replayed++;
  if (!again.replayed || JSON.stringify(again.result) !== JSON.stringify(first.result))
    failures.push(`key kill-${key} did not replay its result`);
}
const after = ledger.executionCount();
ledger.close();
if (after - before !== KEYS - replayed) failures.push(`replaying every key executed ${after - before} times, expected ${KEYS - replayed}`);
rmSync(folder, { recursive: true, force: true });

console.log(
  `kill test: ${SECONDS} s, ${PROCESSES} processes, ${kills} SIGKILLs, ${KEYS} keys; ${counter} executions committed before the end, ` +
    `${replayed} keys replayed exactly, ${KEYS - replayed} executed once at the end; ${failures.length === 0 ? 'exact' : 'NOT EXACT'}`,
);
for (const failure of failures.slice(0, 10)) console.log(`  - ${failure}`);
process.exitCode = failures.length === 0 ? 0 : 1;
