import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { InvalidArgumentError, IdempotencyKeyMismatchError, KeyInFlightError, LedgerError } from './errors.js';
import { openDatabase, prepareKept } from './kept-sqlite.js';
import { fingerprint } from './fingerprint.js';
import type { LedgerOperation } from './ledger-operations.js';
import { requireInteger, requireJson, requireNonEmptyString } from './validate-arguments.js';
import { requireKey } from './ledger-keys.js';
import { whileBusy } from './while-busy.js';

export interface LedgerOptions {
  /** How long a writer waits for another connection's lock before failing (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * `full` (the default) syncs every commit to disk: a receipt survives a power loss. `normal` syncs at
   * checkpoints only: a receipt survives the process being killed but not the machine losing power — enough
   * for a throwaway ledger (the simulator's), and no commit waits for the disk.
   */
  readonly synchronous?: 'full' | 'normal';
  /**
   * Start a new, empty ledger when none exists at the path. Without it (the default) a missing or
   * zero-length file is refused: a ledger that was deleted, truncated or never created must not be
   * recreated silently, or every key would execute again.
   */
  readonly create?: boolean;
  /**
   * How long a key's record is kept: a request that comes later with the same key runs again (the key has
   * expired), and `reconcile` no longer finds it. Absent: records are kept for ever. Records written before
   * keys had a time are never expired.
   */
  readonly keyTtlMs?: number;
  /**
   * What a request sees when another connection is executing (its key may be in flight): `wait` (the default)
   * waits for that execution to commit, then replays or executes; `conflict` fails at once with
   * KeyInFlightError, having run nothing.
   */
  readonly whileInFlight?: 'wait' | 'conflict';
  /** The clock key lifetimes are measured on (ms); Date.now by default. */
  readonly now?: () => number;
}

/** What scopes a key: keys of different scopes (tenants, grants) never collide. */
export interface KeyOptions {
  readonly idempotencyKey?: string;
  /** The tenant or grant the key belongs to; absent: the key is global. */
  readonly scope?: string;
}

export interface Execution<Result> {
  /** A fresh copy, rebuilt from the stored JSON: editing it never changes a later replay. */
  readonly result: Result;
  /** True when the key was known and the stored result was returned without executing. */
  readonly replayed: boolean;
}

export interface LedgerRecord {
  readonly key: string;
  readonly operation: string;
  readonly fingerprint: string;
  readonly result: unknown;
  readonly execution: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS execution_counter (id INTEGER PRIMARY KEY CHECK (id = 1), executions INTEGER NOT NULL);
  INSERT OR IGNORE INTO execution_counter (id, executions) VALUES (1, 0);
  CREATE TABLE IF NOT EXISTS idempotency_records (
    key TEXT PRIMARY KEY,
    operation TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    result_json TEXT NOT NULL,
    execution INTEGER NOT NULL,
    created_at INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS effects (
    receipt TEXT PRIMARY KEY,
    operation TEXT NOT NULL,
    idempotency_key TEXT,
    result_json TEXT NOT NULL
  );
`;

/**
 * The idempotency ledger on a SQLite file (better-sqlite3): WAL, a busy timeout, and one BEGIN IMMEDIATE
 * transaction around the key lookup, the business effect (a receipt row), the execution counter and the
 * stored result, rolled back on any error. The same key with the same fingerprint returns the stored result
 * without executing; with another fingerprint it is rejected and executes nothing; no key executes every
 * time. Separate connections (processes) racing on one key commit exactly one execution.
 */
export class MutationLedger {
  readonly #db: Database.Database;
  readonly #statements: ReturnType<typeof prepare>;
  readonly #keyTtlMs: number | undefined;
  readonly #conflict: boolean;
  readonly #now: () => number;
  readonly path: string;

  private constructor(path: string, db: Database.Database, options: LedgerOptions) {
    this.path = path;
    this.#db = db;
    this.#statements = prepare(db);
    this.#keyTtlMs = options.keyTtlMs;
    this.#conflict = options.whileInFlight === 'conflict';
    this.#now = options.now ?? Date.now;
  }

  /**
   * Opens the ledger at `path`: an existing ledger, or a new one with `{ create: true }`. Refused: a missing
   * or empty file without `create`, a file that is not a ledger, and a file reached under more than one name
   * (a hard link): SQLite keeps a write-ahead log per name, so two names would be two ledgers over one file
   * and the same key could execute under each.
   */
  static open(path: string, options: LedgerOptions = {}): MutationLedger {
    requireNonEmptyString('path', path);
    const busyTimeoutMs = requireInteger('busyTimeoutMs', options.busyTimeoutMs ?? 5000, 0);
    const create = options.create === true;
    if (options.keyTtlMs !== undefined) requireInteger('keyTtlMs', options.keyTtlMs, 1);
    if (options.whileInFlight !== undefined && options.whileInFlight !== 'wait' && options.whileInFlight !== 'conflict')
      throw new InvalidArgumentError('whileInFlight', `must be wait or conflict, not ${String(options.whileInFlight)}`);
    if (path !== ':memory:') requireOneName(path, create);
    try {
      return whileBusy(busyTimeoutMs, () => {
        const db = openDatabase(path, { timeout: busyTimeoutMs, fileMustExist: !create && path !== ':memory:' });
        try {
          db.exec('PRAGMA journal_mode = WAL');
          db.exec(`PRAGMA synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
          if (create || path === ':memory:') db.exec(SCHEMA);
          else if (prepareKept(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'idempotency_records'").get() === undefined)
            throw new LedgerError(
              `${path} is a SQLite database but not a ledger (no idempotency records); give the ledger its own file`,
              'NOT_A_LEDGER',
            );
          addCreatedAt(db);
          // In conflict mode a locked ledger is answered at once; opening above still waited for the WAL switch.
          if (options.whileInFlight === 'conflict') db.exec('PRAGMA busy_timeout = 0');
          return new MutationLedger(path, db, options);
        } catch (error) {
          db.close();
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof LedgerError) throw error;
      throw ledgerError(error, path);
    }
  }

  /** Runs `operation` once per idempotency key within its scope and lifetime (every time without a key). */
  execute<Args, Result>(operation: LedgerOperation<Args, Result>, args: Args, options: KeyOptions = {}): Execution<Result> {
    requireJson('arguments', args);
    const bound = operation.bind(args);
    const key = options.idempotencyKey === undefined ? undefined : storedKey(options.idempotencyKey, options.scope);
    const print = fingerprint(operation.name, bound);
    const statements = this.#statements;
    const run = this.#db.transaction((): { resultJson: string; replayed: boolean } => {
      if (key !== undefined) {
        const existing = this.#live(key);
        if (existing !== undefined) {
          if (existing.fingerprint !== print) throw new IdempotencyKeyMismatchError(options.idempotencyKey!, options.scope);
          return { resultJson: existing.result_json, replayed: true };
        }
      }
      statements.countExecution.run();
      const execution = (statements.readCounter.get() as { executions: number }).executions;
      const receipt = `${operation.receiptPrefix}-${String(execution).padStart(3, '0')}`;
      const result = operation.effect(args, { receipt, execution });
      requireJson('result', result);
      const resultJson = JSON.stringify(result);
      statements.insertEffect.run(receipt, operation.name, key ?? null, resultJson);
      if (key !== undefined) statements.insertRecord.run(key, operation.name, print, resultJson, execution, this.#now());
      return { resultJson, replayed: false };
    });
    try {
      const { resultJson, replayed } = run.immediate();
      return { result: JSON.parse(resultJson) as Result, replayed };
    } catch (error) {
      if (error instanceof IdempotencyKeyMismatchError || error instanceof InvalidArgumentError) throw error;
      if (this.#conflict && (error as { code?: string }).code === 'SQLITE_BUSY')
        throw new KeyInFlightError(options.idempotencyKey ?? '', options.scope);
      throw ledgerError(error, this.path);
    }
  }

  /** The record of a stored key, unless its lifetime has passed (then it is deleted: the key runs again). */
  #live(key: string): { key: string; operation: string; fingerprint: string; result_json: string; execution: number } | undefined {
    const row = this.#statements.findRecord.get(key) as
      | { key: string; operation: string; fingerprint: string; result_json: string; execution: number; created_at: number }
      | undefined;
    if (row === undefined || this.#keyTtlMs === undefined || row.created_at === 0) return row;
    if (this.#now() - row.created_at < this.#keyTtlMs) return row;
    return undefined;
  }

  /** The committed record of a key (in its scope, within its lifetime), for a client that lost the response: reconcile before any retry. */
  reconcile(idempotencyKey: string, options: { scope?: string } = {}): LedgerRecord | undefined {
    const key = storedKey(idempotencyKey, options.scope);
    try {
      const row = this.#live(key);
      return row === undefined
        ? undefined
        : {
            key: idempotencyKey,
            operation: row.operation,
            fingerprint: row.fingerprint,
            result: JSON.parse(row.result_json) as unknown,
            execution: row.execution,
          };
    } catch (error) {
      throw ledgerError(error, this.path);
    }
  }

  /** How many times any business effect ran. */
  executionCount(): number {
    try {
      return (this.#statements.readCounter.get() as { executions: number }).executions;
    } catch (error) {
      throw ledgerError(error, this.path);
    }
  }

  close(): void {
    this.#db.close();
  }
}

function prepare(db: Database.Database) {
  return {
    findRecord: prepareKept(
      db,
      'SELECT key, operation, fingerprint, result_json, execution, created_at FROM idempotency_records WHERE key = ?',
    ),
    countExecution: prepareKept(db, 'UPDATE execution_counter SET executions = executions + 1 WHERE id = 1'),
    readCounter: prepareKept(db, 'SELECT executions FROM execution_counter WHERE id = 1'),
    insertEffect: prepareKept(db, 'INSERT INTO effects (receipt, operation, idempotency_key, result_json) VALUES (?, ?, ?, ?)'),
    // An expired record is replaced by the new execution's.
    insertRecord: prepareKept(
      db,
      'INSERT OR REPLACE INTO idempotency_records (key, operation, fingerprint, result_json, execution, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
  };
}

/** The key as stored: a global key as given; a scoped one prefixed by U+0000, its scope and U+0000 (which no key contains). */
function storedKey(key: string, scope: string | undefined): string {
  const checked = requireKey(key);
  return scope === undefined ? checked : `\u0000${requireKey(scope, 'scope')}\u0000${checked}`;
}

/** A ledger written before keys had a time gets the column; its old records have time 0 and never expire. */
function addCreatedAt(db: Database.Database): void {
  const columns = prepareKept(db, 'PRAGMA table_info(idempotency_records)').all() as { name: string }[];
  if (columns.some((column) => column.name === 'created_at')) return;
  try {
    db.exec('ALTER TABLE idempotency_records ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0');
  } catch (error) {
    // Another connection added it between our look and our change.
    if (!/duplicate column/i.test((error as Error).message)) throw error;
  }
}

/** The path names one existing file, or nothing when a ledger may be created there. */
function requireOneName(path: string, create: boolean): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && create) return;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new LedgerError(
        `${path}: no ledger exists here (deleted, moved, or never created); ` +
          'open it with { create: true } only to start a new, empty one — every key would execute again',
        'ENOENT',
      );
    throw ledgerError(error, path);
  }
  if (stat.isFile() && stat.nlink > 1)
    throw new LedgerError(
      `${path} is reached under ${stat.nlink} names (hard links); SQLite keeps a write-ahead log per name, ` +
        'so each name would be a ledger of its own: give the ledger one name',
      'HARD_LINKED',
    );
  if (stat.isFile() && stat.size === 0 && !create)
    throw new LedgerError(
      `${path} is empty (0 bytes): not a ledger, perhaps truncated; ` +
        'open it with { create: true } only to start a new, empty one — every key would execute again',
      'EMPTY',
    );
}

function ledgerError(error: unknown, path: string): LedgerError {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  if (code === 'SQLITE_NOTADB') return new LedgerError(`${path} is not a SQLite database; give the ledger its own file`, code);
  if (code === 'SQLITE_BUSY')
    return new LedgerError(`${path} stayed locked by another connection past the busy timeout; nothing was committed, retry later`, code);
  if (code === 'SQLITE_CANTOPEN')
    return new LedgerError(`${path} cannot be opened as a database file (a directory, or a folder that does not exist?)`, code);
  if (code === 'SQLITE_READONLY') return new LedgerError(`${path} is read-only; the ledger must be able to write`, code);
  return new LedgerError(`${path}: ${message}`, code);
}
