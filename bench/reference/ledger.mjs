// Ledger speed, in one process, interleaved rounds, medians:
// - commits with fresh keys against bare better-sqlite3 transactions doing the same inserts with the same
//   pragmas (target: at least 0.8× their rate);
// - replays of committed keys against commits (target: at least 5× faster).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chargeAccount, MutationLedger } from '../../dist/reference.js';
import { median } from '../measure.mjs';

const N = Number(process.env.N ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'mcprely-bench-ledger-'));

function bare(path) {
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE execution_counter (id INTEGER PRIMARY KEY CHECK (id = 1), executions INTEGER NOT NULL);
    INSERT INTO execution_counter VALUES (1, 0);
    CREATE TABLE idempotency_records (
      key TEXT PRIMARY KEY, operation TEXT NOT NULL, fingerprint TEXT NOT NULL, result_json TEXT NOT NULL, execution INTEGER NOT NULL
    );
    CREATE TABLE effects (receipt TEXT PRIMARY KEY, operation TEXT NOT NULL, idempotency_key TEXT, result_json TEXT NOT NULL);`);
  const count = db.prepare('UPDATE execution_counter SET executions = executions + 1 WHERE id = 1');
  const effect = db.prepare('INSERT INTO effects VALUES (?, ?, ?, ?)');
  const record = db.prepare('INSERT INTO idempotency_records VALUES (?, ?, ?, ?, ?)');
  const insert = db.transaction((i) => {
    count.run();
    const json = `{"receipt":"charge-${i}","account":"acct-${i}","cents":${i + 1},"status":"charged"}`;
    effect.run(`charge-${i}`, 'charge_account', `key-${i}`, json);
    record.run(`key-${i}`, 'charge_account', 'f'.repeat(64), json, i);
  });
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) insert.immediate(i);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  db.close();
  return ms;
}

function ours(path) {
  const ledger = MutationLedger.open(path, { create: true });
  let start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) ledger.execute(chargeAccount, { account: `acct-${i}`, cents: i + 1 }, { idempotencyKey: `key-${i}` });
  const commitMs = Number(process.hrtime.bigint() - start) / 1e6;
  start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) ledger.execute(chargeAccount, { account: `acct-${i}`, cents: i + 1 }, { idempotencyKey: `key-${i}` });
  const replayMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (ledger.executionCount() !== N) throw new Error('replays executed');
  ledger.close();
  return { commitMs, replayMs };
}

const bareTimes = [];
const commitTimes = [];
const replayTimes = [];
for (let round = 0; round < ROUNDS; round++) {
  bareTimes.push(bare(join(dir, `bare-${round}.sqlite`)));
  const { commitMs, replayMs } = ours(join(dir, `ours-${round}.sqlite`));
  commitTimes.push(commitMs);
  replayTimes.push(replayMs);
}
const bareMs = median(bareTimes);
const commitMs = median(commitTimes);
const replayMs = median(replayTimes);
const rate = (ms) => ((N / ms) * 1000).toFixed(0);
console.log(`\nLedger: ${N} operations per round, median of ${ROUNDS} interleaved rounds (WAL, synchronous=FULL)`);
console.log(`  bare better-sqlite3 transactions   ${rate(bareMs).padStart(7)} /s`);
console.log(
  `  MutationLedger commits (fresh key) ${rate(commitMs).padStart(7)} /s   ${(bareMs / commitMs).toFixed(2)}× the bare rate (target ≥ 0.8×)`,
);
console.log(
  `  MutationLedger replays             ${rate(replayMs).padStart(7)} /s   ${(commitMs / replayMs).toFixed(1)}× faster than commits (target ≥ 5×)`,
);
process.exitCode = bareMs / commitMs >= 0.8 && commitMs / replayMs >= 5 ? 0 : 1;
