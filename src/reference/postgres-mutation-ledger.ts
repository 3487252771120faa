import type { Pool, PoolClient } from 'pg';
import { IdempotencyKeyMismatchError, InvalidArgumentError, KeyInFlightError, LedgerError } from './errors.js';
import { fingerprint } from './fingerprint.js';
import type { IdempotencyLedger } from './idempotency-ledger.js';
import type { LedgerOperation } from './ledger-operations.js';
import { requireKey } from './ledger-keys.js';
import type { Execution, KeyOptions, LedgerRecord } from './mutation-ledger.js';
import { requireInteger, requireJson, requireNonEmptyString } from './validate-arguments.js';

export interface PostgresLedgerOptions {
  /** postgres://user:password@host:port/database — the password is never repeated in an error. */
  readonly connectionString: string;
  /** The schema that holds the ledger's three tables (default `public`); one ledger per schema. */
  readonly schema?: string;
  /** Create the tables when the schema has none; without it (the default) a missing ledger is refused. */
  readonly create?: boolean;
  /** Connections this process keeps open (default 4): one pool per replica process. */
  readonly poolSize?: number;
  /** How long to wait for a connection to the server (default 5000 ms). */
  readonly connectTimeoutMs?: number;
  /** How long a claimant waits for another transaction's claim of the same key (default 30 000 ms). */
  readonly lockTimeoutMs?: number;
  /** As for the SQLite ledger: how long a key's record is kept (absent: for ever). */
  readonly keyTtlMs?: number;
  /** As for the SQLite ledger: `wait` for a key in flight (the default), or fail at once with KeyInFlightError. */
  readonly whileInFlight?: 'wait' | 'conflict';
  /** The clock key lifetimes are measured on (ms); Date.now by default. */
  readonly now?: () => number;
}

/** The tables and the columns the ledger needs, in order; a table of another shape is refused. */
const TABLES = {
  mcprely_execution_counter: ['id', 'executions'],
  mcprely_idempotency_records: ['scope', 'key', 'operation', 'fingerprint', 'result_json', 'execution', 'created_at'],
  mcprely_effects: ['receipt', 'operation', 'scope', 'idempotency_key', 'result_json'],
} as const;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The idempotency ledger on PostgreSQL (the `pg` driver, one pool per process), with the same contract as the
 * SQLite ledger: the same results, errors, fingerprints and canonical JSON, and reconcile by key.
 *
 * Concurrency design:
 * 1. A key is claimed by `INSERT … ON CONFLICT (scope, key) DO NOTHING` on its primary key, in a READ
 *    COMMITTED transaction: the first claimant's row lock makes every concurrent claimant of that key wait
 *    (up to `lockTimeoutMs`) until it commits or rolls back.
 * 2. The claim, the execution counter, the business effect (a receipt row) and the stored result commit in that
 *    one transaction; any error rolls all of it back, and a connection that dies mid-way is rolled back by the
 *    server, so the key stays unclaimed and a retry with it runs once.
 * 3. A claimant that finds the key taken (after waiting) reads the committed record: the same fingerprint
 *    replays the stored result, another is rejected (IdempotencyKeyMismatchError); nothing executes.
 * 4. Replays of committed keys take a fast path: one autocommit SELECT, no transaction, no lock.
 * 5. With `whileInFlight: 'conflict'`, a claimant first tries a transaction-scoped advisory lock on the key and
 *    fails at once with KeyInFlightError when another transaction holds it.
 */
export class PostgresMutationLedger implements IdempotencyLedger {
  readonly #pool: Pool;
  readonly #tables: { counter: string; records: string; effects: string };
  readonly #keyTtlMs: number | undefined;
  readonly #statementPrefix: string;
  readonly #conflict: boolean;
  readonly #now: () => number;
  /** Where the ledger lives, without the password: `host:port/database (schema s)`. */
  readonly place: string;

  private constructor(pool: Pool, schema: string, place: string, options: PostgresLedgerOptions) {
    this.#pool = pool;
    const quoted = quoteIdentifier(schema);
    this.#tables = {
      counter: `${quoted}.mcprely_execution_counter`,
      records: `${quoted}.mcprely_idempotency_records`,
      effects: `${quoted}.mcprely_effects`,
    };
    this.place = place;
    this.#statementPrefix = `mcprely_${schema}_`;
    this.#keyTtlMs = options.keyTtlMs;
    this.#conflict = options.whileInFlight === 'conflict';
    this.#now = options.now ?? Date.now;
  }

  /**
   * Connects and opens the ledger in `schema`: an existing ledger, or new tables with `{ create: true }` (made
   * under an advisory lock, so replicas opening at once do not collide). Refused with a LedgerError: a server
   * that cannot be reached, a failed login, a database that does not exist, a schema without a ledger (unless
   * `create`), and tables of another shape.
   */
  static async open(options: PostgresLedgerOptions): Promise<PostgresMutationLedger> {
    const connectionString = requireNonEmptyString('connectionString', options.connectionString);
    const schema = options.schema ?? 'public';
    if (!SCHEMA_NAME.test(schema)) throw new InvalidArgumentError('schema', 'must be a lower-case SQL identifier (a-z, 0-9, _)');
    const poolSize = requireInteger('poolSize', options.poolSize ?? 4, 1);
    const connectTimeoutMs = requireInteger('connectTimeoutMs', options.connectTimeoutMs ?? 5000, 1);
    const lockTimeoutMs = requireInteger('lockTimeoutMs', options.lockTimeoutMs ?? 30_000, 1);
    if (options.keyTtlMs !== undefined) requireInteger('keyTtlMs', options.keyTtlMs, 1);
    if (options.whileInFlight !== undefined && options.whileInFlight !== 'wait' && options.whileInFlight !== 'conflict')
      throw new InvalidArgumentError('whileInFlight', `must be wait or conflict, not ${String(options.whileInFlight)}`);
    const place = describePlace(connectionString, schema);
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString,
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: 'mcprely-ledger',
      // How long a claimant waits for another transaction's claim of the same key, set once per connection.
      options: `-c lock_timeout=${lockTimeoutMs}`,
    });
    // An idle connection the server closes is dropped from the pool; the next query opens a new one.
    pool.on('error', () => {});
    try {
      await prepareTables(pool, schema, options.create === true, place);
      return new PostgresMutationLedger(pool, schema, place, options);
    } catch (error) {
      await pool.end().catch(() => {});
      if (error instanceof LedgerError) throw error;
      throw postgresError(error, place);
    }
  }

  /** Connects once and asks the server for nothing: a LedgerError that says what to do when it cannot. */
  static async checkConnection(connectionString: string, connectTimeoutMs = 5000): Promise<void> {
    const place = describePlace(requireNonEmptyString('connectionString', connectionString));
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs, application_name: 'mcprely-ledger' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (error) {
      throw postgresError(error, place);
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Removes a ledger: its schema and everything in it (for throwaway ledgers, such as a fixture run's). */
  static async drop(options: { readonly connectionString: string; readonly schema: string }): Promise<void> {
    if (!SCHEMA_NAME.test(options.schema) || options.schema === 'public')
      throw new InvalidArgumentError('schema', 'must be a lower-case SQL identifier other than public');
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: options.connectionString, application_name: 'mcprely-ledger' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(options.schema)} CASCADE`);
    } catch (error) {
      throw postgresError(error, describePlace(options.connectionString, options.schema));
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Runs `operation` once per idempotency key within its scope and lifetime (every time without a key). */
  async execute<Args, Result>(operation: LedgerOperation<Args, Result>, args: Args, options: KeyOptions = {}): Promise<Execution<Result>> {
    requireJson('arguments', args);
    const bound = operation.bind(args);
    const key = options.idempotencyKey === undefined ? undefined : requireKey(options.idempotencyKey);
    const scope = options.scope === undefined ? '' : requireKey(options.scope, 'scope');
    const print = fingerprint(operation.name, bound);
    try {
      return await this.#transaction(
        async (client): Promise<Execution<Result> | undefined> => {
          if (key === undefined) return undefined;
          // The fast path: a committed, live record answers without a transaction.
          const committed = await this.#find(client, scope, key, false);
          return committed === undefined ? undefined : replayOf<Result>(committed, print, key, options.scope);
        },
        async (client): Promise<Execution<Result>> => {
          let expired = false;
          let execution = 0;
          if (key !== undefined) {
            if (this.#conflict) {
              const { rows } = await client.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
                `${scope}\u0001${key}`,
              ]);
              if (rows[0].locked !== true) throw new KeyInFlightError(options.idempotencyKey ?? '', options.scope);
            }
            // One round trip claims the key and, when the claim is ours, counts the execution.
            const claimed = await client.query(
              this.#statement(
                'claim',
                `WITH claim AS (
               INSERT INTO ${this.#tables.records} (scope, key, operation, fingerprint, result_json, execution, created_at)
               VALUES ($1, $2, $3, $4, '', 0, $5) ON CONFLICT (scope, key) DO NOTHING RETURNING 1)
             UPDATE ${this.#tables.counter} SET executions = executions + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM claim) RETURNING executions`,
                [scope, key, operation.name, print, this.#now()],
              ),
            );
            if (claimed.rowCount === 0) {
              // Another transaction committed the key (we waited for it): replay, reject, or replace an expired record.
              const existing = await this.#find(client, scope, key, true);
              if (existing !== undefined) return replayOf<Result>(existing, print, key, options.scope);
              expired = true;
            } else execution = Number(claimed.rows[0].executions);
          }
          if (execution === 0) {
            const counted = await client.query(
              `UPDATE ${this.#tables.counter} SET executions = executions + 1 WHERE id = 1 RETURNING executions`,
            );
            execution = Number(counted.rows[0].executions);
          }
          const receipt = `${operation.receiptPrefix}-${String(execution).padStart(3, '0')}`;
          let result: Result;
          try {
            result = operation.effect(args, { receipt, execution });
          } catch (error) {
            throw new EffectFailure(error);
          }
          requireJson('result', result);
          const resultJson = JSON.stringify(result);
          // The receipt and the stored result in one round trip.
          const effect = `INSERT INTO ${this.#tables.effects} (receipt, operation, scope, idempotency_key, result_json) VALUES ($1, $2, $3, $4, $5)`;
          if (key === undefined) await client.query(this.#statement('effect', effect, [receipt, operation.name, scope, null, resultJson]));
          else
            await client.query(
              this.#statement(
                expired ? 'store-renewed' : 'store',
                `WITH effect AS (${effect})
             UPDATE ${this.#tables.records} SET operation = $2, fingerprint = $6, result_json = $5, execution = $7${expired ? ', created_at = $8' : ''}
             WHERE scope = $3 AND key = $4`,
                [receipt, operation.name, scope, key, resultJson, print, execution, ...(expired ? [this.#now()] : [])],
              ),
            );
          return { result: JSON.parse(resultJson) as Result, replayed: false };
        },
      );
    } catch (error) {
      if (error instanceof IdempotencyKeyMismatchError || error instanceof InvalidArgumentError || error instanceof KeyInFlightError)
        throw error;
      if (error instanceof LedgerError) throw error;
      if (error instanceof EffectFailure) throw error.cause; // the operation's own error, after the rollback
      throw postgresError(error, this.place);
    }
  }

  /** The committed record of a key (in its scope, within its lifetime), for a client that lost the response. */
  async reconcile(idempotencyKey: string, options: { scope?: string } = {}): Promise<LedgerRecord | undefined> {
    const key = requireKey(idempotencyKey);
    const scope = options.scope === undefined ? '' : requireKey(options.scope, 'scope');
    try {
      const row = await this.#find(this.#pool, scope, key, false);
      return row === undefined
        ? undefined
        : {
            key: idempotencyKey,
            operation: row.operation,
            fingerprint: row.fingerprint,
            result: JSON.parse(row.result_json),
            execution: row.execution,
          };
    } catch (error) {
      throw postgresError(error, this.place);
    }
  }

  /** How many times any business effect ran. */
  async executionCount(): Promise<number> {
    try {
      const { rows } = await this.#pool.query(`SELECT executions FROM ${this.#tables.counter} WHERE id = 1`);
      return Number(rows[0].executions);
    } catch (error) {
      throw postgresError(error, this.place);
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  /** A named (prepared once per connection) statement: the server parses and plans it only the first time. */
  #statement(name: string, text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
    return { name: `${this.#statementPrefix}${name}`, text, values };
  }

  /** A committed record that is live (a record whose lifetime has passed counts as absent). */
  async #find(
    on: Pool | PoolClient,
    scope: string,
    key: string,
    lock: boolean,
  ): Promise<{ operation: string; fingerprint: string; result_json: string; execution: number } | undefined> {
    const { rows } = await on.query(
      this.#statement(
        lock ? 'find-locked' : 'find',
        `SELECT operation, fingerprint, result_json, execution, created_at FROM ${this.#tables.records}
         WHERE scope = $1 AND key = $2 AND execution > 0${lock ? ' FOR UPDATE' : ''}`,
        [scope, key],
      ),
    );
    const row = rows[0] as
      | { operation: string; fingerprint: string; result_json: string; execution: string; created_at: string }
      | undefined;
    if (row === undefined) return undefined;
    const createdAt = Number(row.created_at);
    if (this.#keyTtlMs !== undefined && createdAt !== 0 && this.#now() - createdAt >= this.#keyTtlMs) return undefined;
    return { operation: row.operation, fingerprint: row.fingerprint, result_json: row.result_json, execution: Number(row.execution) };
  }

  /**
   * On one pooled connection: `before` outside any transaction (an answer from it ends the call), then `work`
   * between BEGIN and COMMIT, rolled back on any error; a broken connection is not given back to the pool.
   */
  async #transaction<T>(before: (client: PoolClient) => Promise<T | undefined>, work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    try {
      const early = await before(client).catch((error: unknown) => {
        if (isConnectionError(error)) broken ??= error as Error;
        throw error;
      });
      if (early !== undefined) {
        client.off('error', onError);
        client.release();
        return early;
      }
    } catch (error) {
      client.off('error', onError);
      client.release(broken);
      throw error;
    }
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken ??= rollbackError;
      });
      if (isConnectionError(error)) broken ??= error as Error;
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}

/** An error the business effect threw: rolled back like any other, then given to the caller as it was. */
class EffectFailure {
  constructor(readonly cause: unknown) {}
}

function replayOf<Result>(
  record: { fingerprint: string; result_json: string },
  print: string,
  key: string,
  scope: string | undefined,
): Execution<Result> {
  if (record.fingerprint !== print) throw new IdempotencyKeyMismatchError(key, scope);
  return { result: JSON.parse(record.result_json) as Result, replayed: true };
}

/** Checks the tables' shape, creating them when asked and absent (one creator at a time, under an advisory lock). */
async function prepareTables(pool: Pool, schema: string, create: boolean, place: string): Promise<void> {
  const shape = await tableShape(pool, schema);
  if (shape.size === 0 && !create)
    throw new LedgerError(
      `${place}: no ledger exists here (no mcprely tables); open it with { create: true } only to start a new, empty one — every key would execute again`,
      'NOT_FOUND',
    );
  if (shape.size < Object.keys(TABLES).length && create) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mcprely-ledger-schema:${schema}`]);
      const quoted = quoteIdentifier(schema);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${quoted}.mcprely_execution_counter (id integer PRIMARY KEY CHECK (id = 1), executions bigint NOT NULL)`,
      );
      await client.query(`INSERT INTO ${quoted}.mcprely_execution_counter (id, executions) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${quoted}.mcprely_idempotency_records (scope text NOT NULL, key text NOT NULL, operation text NOT NULL,
         fingerprint text NOT NULL, result_json text NOT NULL, execution bigint NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (scope, key))`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${quoted}.mcprely_effects (receipt text PRIMARY KEY, operation text NOT NULL, scope text,
         idempotency_key text, result_json text NOT NULL)`,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  const final = await tableShape(pool, schema);
  for (const [table, columns] of Object.entries(TABLES)) {
    const found = final.get(table);
    if (found === undefined)
      throw new LedgerError(
        `${place}: the table ${table} is missing, so this is not a whole ledger; give the ledger its own schema`,
        'NOT_A_LEDGER',
      );
    if (found.join(',') !== columns.join(','))
      throw new LedgerError(
        `${place}: the table ${table} has the columns (${found.join(', ')}) where the ledger needs (${columns.join(', ')}); ` +
          'it belongs to something else: give the ledger its own schema',
        'NOT_A_LEDGER',
      );
  }
}

async function tableShape(pool: Pool, schema: string): Promise<Map<string, string[]>> {
  const { rows } = await pool.query(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = $1 AND table_name = ANY($2) ORDER BY table_name, ordinal_position`,
    [schema, Object.keys(TABLES)],
  );
  const shape = new Map<string, string[]>();
  for (const row of rows as { table_name: string; column_name: string }[]) {
    const columns = shape.get(row.table_name) ?? [];
    columns.push(row.column_name);
    shape.set(row.table_name, columns);
  }
  return shape;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `PostgreSQL at host:port/database (schema s)`, from the connection string without its user or password. */
export function describePlace(connectionString: string, schema?: string): string {
  try {
    const url = new URL(connectionString);
    const database = decodeURIComponent(url.pathname.slice(1)) || '(default database)';
    return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || '5432'}/${database}${schema === undefined ? '' : ` (schema ${schema})`}`;
  } catch {
    throw new InvalidArgumentError('connectionString', 'must be a postgres:// or postgresql:// URL');
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
]);

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const message = (error as Error)?.message ?? '';
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/** A PostgreSQL or connection error as a LedgerError that says what to do (never with the password). */
function postgresError(error: unknown, place: string): LedgerError {
  const code = (error as { code?: string }).code;
  const message = (error as Error)?.message ?? String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return new LedgerError(`${place}: connection refused; is the server running and listening there?`, code);
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
      return new LedgerError(`${place}: the host cannot be reached (${code}); check the host name in the connection string`, code);
    case '28P01':
      return new LedgerError(`${place}: password authentication failed; check the user and password in the connection string`, code);
    case '28000':
      return new LedgerError(`${place}: the server refused the login (${message}); check the user and pg_hba.conf`, code);
    case '3D000':
      return new LedgerError(`${place}: ${message}; create it, or name an existing database in the connection string`, code);
    case '55P03':
      return new LedgerError(
        `${place}: the key stayed locked by another transaction past the lock timeout; nothing was committed, retry later`,
        code,
      );
    case '40001':
    case '40P01':
      return new LedgerError(
        `${place}: the transaction was rolled back (${message}); nothing was committed, retry with the same key`,
        code,
      );
  }
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message))
    return new LedgerError(
      `${place}: no connection within the connect timeout (the server is slow to accept, or every pooled connection is busy); ` +
        'nothing was committed, retry later',
      'CONNECT_TIMEOUT',
    );
  if (isConnectionError(error))
    return new LedgerError(
      `${place}: the connection was lost (${message}); the server rolls back a transaction it did not commit, ` +
        'so retry with the same idempotency key: it executes at most once',
      'CONNECTION_LOST',
    );
  return new LedgerError(`${place}: ${message}`, code);
}
