// The ledger under SIGKILL: for a bounded time, several processes charge a fixed set of keys on one ledger
// (a SQLite file, or PostgreSQL with --database-url) while the test kills one of them at a random moment every
// few milliseconds — inside a transaction as often as not — and starts another. Then every key is replayed.
// Exact means: no key executed twice, every committed execution has its receipt, the counter equals the
// receipts, and each replay returns the stored result without executing.
//   node scripts/ledger-kill-test.mjs [--seconds 20] [--processes 4] [--keys 5000] [--database-url postgres://…]
// Prints a summary; exits 1 if the ledger is not exact. Needs dist/ (node scripts/build.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { chargeAccount, PostgresMutationLedger, sqliteLedger } from '../dist/reference.js';

// better-sqlite3's objects are kept to the end (not left to the garbage collector, which aborts the process
// under Node 24.19+ headers: src/reference/kept-sqlite.ts); pragma() would make a statement of its own.
const keptSqlite = [];

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const SECONDS = option('seconds', 20);
const PROCESSES = option('processes', 4);
const KEYS = option('keys', 5000);
const urlAt = process.argv.indexOf('--database-url');
const DATABASE_URL = urlAt === -1 ? undefined : process.argv[urlAt + 1];

const folder = mkdtempSync(join(tmpdir(), 'mcprely-kill-'));
const schema = `kill_${process.pid}`;
const path = DATABASE_URL ?? join(folder, 'ledger.sqlite');
const openLedger = (create = false) =>
  DATABASE_URL === undefined
    ? Promise.resolve(sqliteLedger(path, { create }))
    : PostgresMutationLedger.open({ connectionString: path, schema, create });
await (await openLedger(true)).close();
/** PostgreSQL's count of rolled-back transactions: those a killed worker left open are rolled back by the server. */
async function rollbacks() {
  if (DATABASE_URL === undefined) return 0;
  const client = new pg.Client({ connectionString: path });
  await client.connect();
  await client.query('SELECT pg_stat_clear_snapshot()');
  const n = Number((await client.query('SELECT xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
  await client.end();
  return n;
}
const rollbacksBefore = await rollbacks();
const worker = fileURLToPath(new URL('./ledger-kill-worker.mjs', import.meta.url));

let kills = 0;
const live = new Set();
function start() {
  const child = spawn(process.execPath, [worker, path, String(KEYS), schema], { stdio: ['ignore', 'pipe', 'pipe'] });
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

// Statistics reach pg_stat_database within about a second.
if (DATABASE_URL !== undefined) await new Promise((resolve) => setTimeout(resolve, 1500));
const rolledBack = (await rollbacks()) - rollbacksBefore;
// The ledger as it was left: receipts per key, the counter, the records.
const { twice, receipts, counter, records, integrity } = DATABASE_URL === undefined ? sqliteState() : await postgresState();
if (twice.length > 0) failures.push(`${twice.length} key(s) executed more than once, e.g. ${JSON.stringify(twice[0])}`);
if (receipts !== counter) failures.push(`${receipts} receipts but the counter says ${counter} executions`);
if (records !== receipts) failures.push(`${records} records but ${receipts} receipts`);
if (integrity !== 'ok') failures.push(`integrity_check: ${integrity}`);

// Every key replayed: a committed key returns its stored result without executing; the rest execute once now.
const ledger = await openLedger();
const before = await ledger.executionCount();
let replayed = 0;
for (let key = 0; key < KEYS; key++) {
  const first = await ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
  const again = await ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
  if (first.replayed) replayed++;
  if (!again.replayed || JSON.stringify(again.result) !== JSON.stringify(first.result))
    failures.push(`key kill-${key} did not replay its result`);
}
const after = await ledger.executionCount();
await ledger.close();
if (after - before !== KEYS - replayed) failures.push(`replaying every key executed ${after - before} times, expected ${KEYS - replayed}`);
rmSync(folder, { recursive: true, force: true });
if (DATABASE_URL !== undefined) {
  const client = new pg.Client({ connectionString: path });
  await client.connect();
  await client.query(`DROP SCHEMA "${schema}" CASCADE`);
  await client.end();
}

console.log(
  `kill test (${DATABASE_URL === undefined ? 'SQLite' : 'PostgreSQL'}): ${SECONDS} s, ${PROCESSES} processes, ${kills} SIGKILLs, ${KEYS} keys; ` +
    `${counter} executions committed before the end, ` +
    `${replayed} keys replayed exactly, ${KEYS - replayed} executed once at the end` +
    (DATABASE_URL === undefined ? '' : `; ${rolledBack} transactions rolled back by the server (killed mid-way)`) +
    `; ${failures.length === 0 ? 'exact' : 'NOT EXACT'}`,
);
for (const failure of failures.slice(0, 10)) console.log(`  - ${failure}`);
process.exitCode = failures.length === 0 ? 0 : 1;

function sqliteState() {
  const db = new Database(path, { readonly: true });
  const query = (sql) => {
    const statement = db.prepare(sql);
    keptSqlite.push(statement);
    return statement;
  };
  keptSqlite.push(db);
  const state = {
    twice: query('SELECT idempotency_key AS key, COUNT(*) AS n FROM effects GROUP BY idempotency_key HAVING n > 1').all(),
    receipts: query('SELECT COUNT(*) AS n FROM effects').get().n,
    counter: query('SELECT executions AS n FROM execution_counter').get().n,
    records: query('SELECT COUNT(*) AS n FROM idempotency_records').get().n,
    integrity: query('PRAGMA integrity_check').pluck().get(),
  };
  db.close();
  return state;
}

async function postgresState() {
  const client = new pg.Client({ connectionString: path });
  await client.connect();
  const one = async (sql) => Number((await client.query(sql)).rows[0].n);
  const state = {
    twice: (
      await client.query(
        `SELECT idempotency_key AS key, COUNT(*)::int AS n FROM "${schema}".mcprely_effects GROUP BY idempotency_key HAVING COUNT(*) > 1`,
      )
    ).rows,
    receipts: await one(`SELECT COUNT(*) AS n FROM "${schema}".mcprely_effects`),
    counter: await one(`SELECT executions AS n FROM "${schema}".mcprely_execution_counter`),
    // A claim whose transaction died never committed: every committed record has its result.
    records: await one(`SELECT COUNT(*) AS n FROM "${schema}".mcprely_idempotency_records WHERE execution > 0`),
    integrity:
      (await one(`SELECT COUNT(*) AS n FROM "${schema}".mcprely_idempotency_records WHERE execution = 0`)) === 0
        ? 'ok'
        : 'claims without results',
  };
  await client.end();
  return state;
}
