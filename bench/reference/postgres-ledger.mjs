// PostgreSQL ledger speed, interleaved rounds, medians, in two shapes:
// - serial: one connection, one call at a time (each call's cost is its round trips: a replay is one SELECT,
//   a commit is that SELECT, BEGIN, claim-and-count, effect-and-record, COMMIT);
// - concurrent: a pool of 4 connections with 8 callers, as a replica serves requests (the targets apply here).
// Each shape measures commits with fresh keys against bare `pg` transactions doing the same inserts (BEGIN;
// INSERT the record; UPDATE the counter; INSERT the effect; COMMIT) with the same connections and callers
// (target: at least 0.8× their rate), and replays of committed keys against commits (target: at least 5× faster).
// Starts a throwaway PostgreSQL server (scripts/postgres-server.mjs), or uses --database-url.
//   node bench/reference/postgres-ledger.mjs [--database-url postgres://…]
import pg from 'pg';
import { chargeAccount, PostgresMutationLedger } from '../../dist/reference.js';
import { startPostgres } from '../../scripts/postgres-server.mjs';
import { median } from '../measure.mjs';

const N = Number(process.env.N ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const at = process.argv.indexOf('--database-url');
const server = at === -1 ? await startPostgres() : undefined;
const url = server?.url ?? process.argv[at + 1];

/** Runs `count` calls with `callers` at a time; resolves to the wall time in ms. */
async function timed(count, callers, call) {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < count) await call(next++);
    }),
  );
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function bare(schema, connections, callers) {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(`CREATE TABLE ${schema}.counter (id integer PRIMARY KEY CHECK (id = 1), executions bigint NOT NULL)`);
  await pool.query(`INSERT INTO ${schema}.counter VALUES (1, 0)`);
  await pool.query(`CREATE TABLE ${schema}.records (scope text NOT NULL, key text NOT NULL, operation text NOT NULL, fingerprint text NOT NULL,
    result_json text NOT NULL, execution bigint NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (scope, key))`);
  await pool.query(
    `CREATE TABLE ${schema}.effects (receipt text PRIMARY KEY, operation text NOT NULL, scope text, idempotency_key text, result_json text NOT NULL)`,
  );
  const ms = await timed(N, callers, async (i) => {
    const json = `{"receipt":"charge-${i}","account":"acct-${i}","cents":${i + 1},"status":"charged"}`;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO ${schema}.records VALUES ('', $1, 'charge_account', $2, $3, $4, $5)`, [
        `key-${i}`,
        'f'.repeat(64),
        json,
        i + 1,
        Date.now(),
      ]);
      await client.query(`UPDATE ${schema}.counter SET executions = executions + 1 WHERE id = 1`);
      await client.query(`INSERT INTO ${schema}.effects VALUES ($1, 'charge_account', '', $2, $3)`, [`charge-${i}`, `key-${i}`, json]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
  await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  await pool.end();
  return ms;
}

async function ours(schema, connections, callers) {
  const ledger = await PostgresMutationLedger.open({ connectionString: url, schema, create: true, poolSize: connections });
  const charge = (i) => ledger.execute(chargeAccount, { account: `acct-${i}`, cents: i + 1 }, { idempotencyKey: `key-${i}` });
  const commitMs = await timed(N, callers, charge);
  const replayMs = await timed(N, callers, charge);
  if ((await ledger.executionCount()) !== N) throw new Error('replays executed');
  await ledger.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA ${schema} CASCADE`);
  await client.end();
  return { commitMs, replayMs };
}

const SHAPES = [
  { name: 'serial: 1 connection, 1 caller', connections: 1, callers: 1, target: false },
  { name: 'concurrent: a pool of 4, 8 callers', connections: 4, callers: 8, target: true },
];
const rate = (ms) => ((N / ms) * 1000).toFixed(0);
let ok = true;
try {
  for (const shape of SHAPES) {
    const bareTimes = [];
    const commitTimes = [];
    const replayTimes = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareTimes.push(await bare(`bench_bare_${round}`, shape.connections, shape.callers));
      const { commitMs, replayMs } = await ours(`bench_ours_${round}`, shape.connections, shape.callers);
      commitTimes.push(commitMs);
      replayTimes.push(replayMs);
    }
    const bareMs = median(bareTimes);
    const commitMs = median(commitTimes);
    const replayMs = median(replayTimes);
    const targets = shape.target ? ['(target ≥ 0.8×)', '(target ≥ 5×)'] : ['', ''];
    console.log(
      `\nPostgreSQL ledger, ${shape.name}: ${N} operations per round, median of ${ROUNDS} interleaved rounds (synchronous_commit on)`,
    );
    console.log(`  bare pg transactions               ${rate(bareMs).padStart(7)} /s`);
    console.log(
      `  PostgresMutationLedger commits     ${rate(commitMs).padStart(7)} /s   ${(bareMs / commitMs).toFixed(2)}× the bare rate ${targets[0]}`,
    );
    console.log(
      `  PostgresMutationLedger replays     ${rate(replayMs).padStart(7)} /s   ${(commitMs / replayMs).toFixed(1)}× faster than commits ${targets[1]}`,
    );
    if (shape.target) ok = bareMs / commitMs >= 0.8 && commitMs / replayMs >= 5;
  }
} finally {
  server?.stop();
}
process.exitCode = ok ? 0 : 1;
