import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { IdempotencyKeyMismatchError, KeyInFlightError, LedgerError } from '../../src/reference/errors.js';
import { sqliteLedger } from '../../src/reference/idempotency-ledger.js';
import { chargeAccount } from '../../src/reference/ledger-operations.js';
import { PostgresMutationLedger } from '../../src/reference/postgres-mutation-ledger.js';
import { ledgerContract, scriptAnswers } from '../reference/ledger-contract.js';

const URL_ = process.env['MCPRELY_TEST_DATABASE_URL'];
if (URL_ === undefined || URL_ === '')
  throw new Error('MCPRELY_TEST_DATABASE_URL is not set: run these tests with npm run test:postgres, which starts a PostgreSQL server');
const url: string = URL_;

let schemas = 0;
const freshSchema = () => `t_${process.pid}_${Date.now() % 100_000}_${schemas++}`;
const admin = new pg.Pool({ connectionString: url, max: 4 });
afterAll(async () => {
  await admin.end();
});

const open = (options: Partial<Parameters<typeof PostgresMutationLedger.open>[0]> = {}) =>
  PostgresMutationLedger.open({ connectionString: url, schema: freshSchema(), create: true, ...options });

ledgerContract('PostgreSQL', (options = {}) => open(options));

/** Runs a node script to its end; resolves to its standard output. */
function runNode(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err.slice(0, 500)}`))));
  });
}

/**
 * One replica process per seed (scripts/ledger-storm-worker.mjs: 2 pools, 1 000 charges over 250 keys), all on a
 * new ledger schema; their outcomes together.
 */
async function storm(argumentSets: 'same' | 'two', seeds: readonly number[]): Promise<{ schema: string; outcomes: StormOutcome[] }> {
  const schema = freshSchema();
  await (await PostgresMutationLedger.open({ connectionString: url, schema, create: true })).close();
  const outputs = await Promise.all(
    seeds.map((seed) => runNode(['scripts/ledger-storm-worker.mjs', url, schema, '1000', '250', '2', argumentSets, String(seed)])),
  );
  return { schema, outcomes: outputs.flatMap((output) => JSON.parse(output) as StormOutcome[]) };
}

type StormOutcome = { key: string; cents: number; replayed?: boolean; result?: { receipt: string; cents: number }; error?: string };

describe('PostgresMutationLedger', () => {
  it('answers the same script as the SQLite ledger, result for result', async () => {
    const postgres = await open();
    const sqlite = sqliteLedger(join(mkdtempSync(join(tmpdir(), 'mcprely-pg-compare-')), 'ledger.sqlite'), { create: true });
    try {
      const expected = await scriptAnswers(sqlite);
      expect(await scriptAnswers(postgres)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(10);
    } finally {
      await postgres.close();
      await sqlite.close();
    }
  });

  it('storm across replicas: 4 processes × 2 pools × 1 000 charges over 250 keys execute exactly 250 times, every replay equal to the first', async () => {
    const { schema, outcomes } = await storm('same', [1, 2, 3, 4]);
    expect(outcomes).toHaveLength(4000);
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.replayed === false)).toHaveLength(250);
    const receipts = new Map<string, string>();
    for (const outcome of outcomes) {
      const seen = receipts.get(outcome.key);
      if (seen === undefined) receipts.set(outcome.key, outcome.result!.receipt);
      else expect(outcome.result!.receipt, outcome.key).toBe(seen);
    }
    const ledger = await PostgresMutationLedger.open({ connectionString: url, schema });
    expect(await ledger.executionCount()).toBe(250);
    await ledger.close();
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys FROM "${schema}".mcprely_effects`,
    );
    expect(rows[0]).toEqual({ n: 250, keys: 250 });
  });

  it('storm with two argument sets per key: one execution per key, every other charge a replay of it or refused', async () => {
    const { outcomes } = await storm('two', [5, 6, 7, 8]);
    expect(outcomes.filter((outcome) => outcome.error !== undefined && outcome.error !== 'mismatch')).toEqual([]);
    const executed = new Map<string, number>();
    for (const outcome of outcomes.filter((item) => item.replayed === false)) {
      expect(executed.has(outcome.key), outcome.key).toBe(false);
      executed.set(outcome.key, outcome.cents);
    }
    expect(executed.size).toBe(250);
    for (const outcome of outcomes) {
      const cents = executed.get(outcome.key)!;
      if (outcome.error === 'mismatch') expect(outcome.cents).not.toBe(cents);
      else expect(outcome.result!.cents).toBe(cents);
    }
    expect(outcomes.filter((outcome) => outcome.error === 'mismatch').length).toBeGreaterThan(1000);
  });

  it('a key in flight on another transaction: conflict mode fails at once having run nothing; wait mode waits, then executes once', async () => {
    const schema = freshSchema();
    const waiting = await PostgresMutationLedger.open({ connectionString: url, schema, create: true });
    const conflict = await PostgresMutationLedger.open({ connectionString: url, schema, whileInFlight: 'conflict' });
    const holder = await admin.connect();
    try {
      // Another replica's transaction holds the claim of key k (and its advisory lock) without committing.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['\u0001k']);
      await holder.query(
        `INSERT INTO "${schema}".mcprely_idempotency_records (scope, key, operation, fingerprint, result_json, execution, created_at)
         VALUES ('', 'k', 'charge_account', 'x', '', 0, 1)`,
      );
      await expect(conflict.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' })).rejects.toThrow(KeyInFlightError);
      const waited = waiting.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('ROLLBACK');
      expect(await waited).toMatchObject({ replayed: false, result: { receipt: 'charge-001' } });
      expect(await conflict.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' })).toMatchObject({ replayed: true });
      expect(await waiting.executionCount()).toBe(1);
    } finally {
      holder.release();
      await waiting.close();
      await conflict.close();
    }
  });

  it('a connection lost mid-transaction: the claim rolls back, the error says to retry, and the retry with the same key runs once', async () => {
    const schema = freshSchema();
    const ledger = await PostgresMutationLedger.open({ connectionString: url, schema, create: true, poolSize: 1 });
    const holder = await admin.connect();
    try {
      // Hold the execution counter so the ledger's transaction stops after its claim, then kill its connection.
      await holder.query('BEGIN');
      await holder.query(`SELECT executions FROM "${schema}".mcprely_execution_counter WHERE id = 1 FOR UPDATE`);
      const attempt = ledger.execute(chargeAccount, { account: 'a', cents: 7 }, { idempotencyKey: 'lost' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      let pid: number | undefined;
      for (let tries = 0; tries < 100 && pid === undefined; tries++) {
        const { rows } = await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'mcprely-ledger' AND wait_event_type = 'Lock' AND query LIKE '%execution_counter%'",
        );
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(pid).toBeDefined();
      const claimed = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".mcprely_idempotency_records`);
      expect(claimed.rows[0].n).toBe(0); // the claim is not visible outside its transaction
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      const error = await attempt;
      expect(error).toBeInstanceOf(LedgerError);
      expect((error as LedgerError).code).toBe('CONNECTION_LOST');
      expect((error as Error).message).toMatch(/retry with the same idempotency key/);
      expect((error as Error).message).not.toContain('mcprely-test'); // never the password
      await holder.query('ROLLBACK');
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".mcprely_idempotency_records`);
      expect(rows[0].n).toBe(0);
      expect(await ledger.execute(chargeAccount, { account: 'a', cents: 7 }, { idempotencyKey: 'lost' })).toMatchObject({
        replayed: false,
      });
      expect(await ledger.execute(chargeAccount, { account: 'a', cents: 7 }, { idempotencyKey: 'lost' })).toMatchObject({ replayed: true });
      expect(await ledger.executionCount()).toBe(1);
    } finally {
      holder.release();
      await ledger.close();
    }
  });

  it('bad states are clear LedgerErrors without the password: server down, wrong password, no database, no ledger, a table of another shape', async () => {
    const refuse = async (options: Parameters<typeof PostgresMutationLedger.open>[0], code: string, words: RegExp) => {
      const error = await PostgresMutationLedger.open(options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, code).toBeInstanceOf(LedgerError);
      expect((error as LedgerError).code).toBe(code);
      expect((error as Error).message).toMatch(words);
      expect((error as Error).message).not.toMatch(/mcprely-test|wrong-secret/);
    };
    const parsed = new URL(url);
    const down = new URL(url);
    down.port = '9';
    await refuse(
      { connectionString: down.href, create: true },
      'ECONNREFUSED',
      /127\.0\.0\.1:9\/postgres .*connection refused; is the server running/,
    );
    const wrong = new URL(url);
    wrong.password = 'wrong-secret';
    await refuse({ connectionString: wrong.href, create: true }, '28P01', /password authentication failed/);
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    await refuse({ connectionString: missing.href, create: true }, '3D000', /no_such_database.*does not exist/);
    await refuse({ connectionString: url, schema: freshSchema() }, 'NOT_FOUND', /no ledger exists here.*create: true/);
    const odd = freshSchema();
    await admin.query(`CREATE SCHEMA "${odd}"`);
    await admin.query(`CREATE TABLE "${odd}".mcprely_idempotency_records (id integer, note text)`);
    await refuse(
      { connectionString: url, schema: odd, create: true },
      'NOT_A_LEDGER',
      /has the columns \(id, note\) where the ledger needs/,
    );
    expect(parsed.password).toBe('mcprely-test');
  });

  it('a mismatch after a replica committed is refused, and a replayed result is a fresh copy', async () => {
    const schema = freshSchema();
    const a = await PostgresMutationLedger.open({ connectionString: url, schema, create: true });
    const b = await PostgresMutationLedger.open({ connectionString: url, schema });
    try {
      const first = await a.execute(chargeAccount, { account: 'x', cents: 3 }, { idempotencyKey: 'shared' });
      await expect(b.execute(chargeAccount, { account: 'x', cents: 4 }, { idempotencyKey: 'shared' })).rejects.toThrow(
        IdempotencyKeyMismatchError,
      );
      const replay = await b.execute(chargeAccount, { account: 'x', cents: 3 }, { idempotencyKey: 'shared' });
      expect(replay).toEqual({ result: first.result, replayed: true });
      expect(replay.result).not.toBe(first.result);
      expect(await b.executionCount()).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('verify --database-url: the ledger fixtures run on PostgreSQL', () => {
  const cli = (args: readonly string[], env: Record<string, string> = {}) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['dist/mcprely.js', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
    });

  it('the complete example passes on PostgreSQL, the race between processes; every fixture schema is dropped afterwards', async () => {
    const run = await cli(['verify', 'fixtures/examples/billing.yaml', '--database-url', url, '-f', 'json']);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      summary: { failed: number; ledgerStandIns: number };
      fixtures: { kind: string; ledger?: { ranOn: string; declared: string; standIn: boolean }; transcript: { text?: string }[] }[];
    };
    expect(report.summary).toMatchObject({ failed: 0, ledgerStandIns: 0 });
    const onPostgres = report.fixtures.filter((fixture) => fixture.ledger?.ranOn === 'postgresql');
    expect(onPostgres.length).toBeGreaterThanOrEqual(5);
    const race = report.fixtures.find((fixture) => fixture.kind === 'two-connections-race-one-key')!;
    expect(race.ledger).toEqual({ declared: 'postgres', ranOn: 'postgresql', standIn: false });
    expect(JSON.stringify(race.transcript)).toContain('separate processes, each with its own connection pool');
    const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'mcprely_fixture%'");
    expect(rows[0].n).toBe(0);
    // The same from the environment, in text: the report says where the ledger ran.
    const text = await cli(['verify', 'fixtures/examples/billing.yaml'], { MCPRELY_DATABASE_URL: url });
    expect(text.stdout).toMatch(
      /^Ledger: the \d+ fixtures? whose ledger the manifest keeps in PostgreSQL ran on PostgreSQL at 127\.0\.0\.1:\d+\/postgres$/m,
    );
    expect(text.stdout).not.toContain('mcprely-test');
  });

  it('a PostgreSQL ledger not shared by the replicas (a database each) fails its race on PostgreSQL', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcprely-pg-verify-')), 'billing.yaml');
    const text = readFileSync('fixtures/examples/billing.yaml', 'utf8').replace(
      'sharedAcrossReplicas: true',
      'sharedAcrossReplicas: false',
    );
    writeFileSync(file, text);
    const run = await cli(['verify', file, '--database-url', url, '-f', 'json']);
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { fixtures: { kind: string; passed: boolean; ledger?: { ranOn: string } }[] };
    const race = report.fixtures.find((fixture) => fixture.kind === 'two-connections-race-one-key')!;
    expect(race).toMatchObject({ passed: false, ledger: { ranOn: 'postgresql' } });
  });
});
