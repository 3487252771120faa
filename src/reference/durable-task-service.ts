import type Database from 'better-sqlite3';
import { LedgerError, ProtocolStateError, TaskError } from './errors.js';
import { openDatabase, prepareKept } from './kept-sqlite.js';
import { fact } from '../spec/revision-facts.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import { requireNonEmptyString, requireOneOf } from './validate-arguments.js';
import { whileBusy } from './while-busy.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { TERMINAL_TASK_STATUSES, type TaskStatus } from '../protocol/task-status.js';

export interface TaskRecord {
  readonly id: string;
  readonly status: TaskStatus;
  /** tasks/cancel was acknowledged (where the revision only acknowledges it) and the worker has not reached a checkpoint yet. */
  readonly cancelRequested: boolean;
}

/** The answer to tasks/cancel: an empty acknowledgement, or the task already cancelled, as the revision defines it. */
export type CancelAnswer = { readonly acknowledged: true } | { readonly task: TaskRecord };

/**
 * Durable tasks on SQLite, so their state outlives the request and the connection that created them (and,
 * on a file, a restart). tasks/cancel follows the revision's `task-cancel` fact: where it is an acknowledgement
 * it records the intent and answers an empty acknowledgement, the task stays `working` until the worker's next
 * checkpoint (and may still complete first); where it is a terminal transition it moves the task to
 * `cancelled` before answering. Terminal statuses never change.
 */
export class DurableTaskService {
  readonly specVersion: SpecVersion;
  readonly #db: Database.Database;
  // Prepared once per service (src/reference/kept-sqlite.ts: no statement is left to the garbage collector).
  readonly #statements: ReturnType<typeof prepare>;

  private constructor(db: Database.Database, specVersion: SpecVersion) {
    this.#db = db;
    this.#statements = prepare(db);
    this.specVersion = specVersion;
  }

  static open(options: { specVersion: SpecVersion; path?: string }): DurableTaskService {
    const specVersion = requireOneOf('specVersion', options?.specVersion, SPEC_VERSIONS);
    const path = options.path === undefined ? ':memory:' : requireNonEmptyString('path', options.path);
    try {
      return whileBusy(5000, () => {
        const db = openDatabase(path, { timeout: 5000 });
        try {
          if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
          db.exec(
            'CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, status TEXT NOT NULL, cancel_requested INTEGER NOT NULL DEFAULT 0)',
          );
          return new DurableTaskService(db, specVersion);
        } catch (error) {
          db.close();
          throw error;
        }
      });
    } catch (error) {
      throw new LedgerError(`${path}: ${(error as Error).message}`, (error as { code?: string }).code);
    }
  }

  /** Creates a task in `working`; it exists durably before this returns. */
  create(id: string): TaskRecord {
    requireNonEmptyString('id', id);
    if (this.#row(id) !== undefined) throw new ProtocolStateError(`task ${JSON.stringify(id)} already exists`);
    this.#statements.insert.run(id, 'working');
    return this.get(id)!;
  }

  /** tasks/cancel, as the revision defines it. */
  cancel(id: string): CancelAnswer {
    requireNonEmptyString('id', id);
    const row = this.#row(id);
    if (fact(this.specVersion, 'task-cancel').value === 'acknowledge') {
      // Eventually consistent: record the intent if the task can still be cancelled, always acknowledge.
      if (row !== undefined && row.status === 'working') this.#statements.requestCancel.run(id);
      return { acknowledged: true };
    }
    if (row === undefined) throw new TaskError(`no task ${JSON.stringify(id)}`, ERROR_CODES.invalidParams);
    if (TERMINAL_TASK_STATUSES.has(row.status))
      throw new TaskError(`task ${JSON.stringify(id)} is already ${row.status}`, ERROR_CODES.invalidParams);
    this.#setStatus(id, 'cancelled');
    return { task: this.get(id)! };
  }

  /** The worker checks for cancellation between steps: a requested cancellation takes effect here. */
  workerCheckpoint(id: string): TaskStatus {
    const row = this.#existing(id);
    if (row.status === 'working' && row.cancel_requested === 1) this.#setStatus(id, 'cancelled');
    return this.get(id)!.status;
  }

  /** The work finished: `completed` unless the task already reached a terminal status. */
  finish(id: string): TaskStatus {
    return this.#end(id, 'completed');
  }

  fail(id: string): TaskStatus {
    return this.#end(id, 'failed');
  }

  /** tasks/get. */
  get(id: string): TaskRecord | undefined {
    const row = this.#row(requireNonEmptyString('id', id));
    return row === undefined
      ? undefined
      : { id, status: row.status, cancelRequested: row.cancel_requested === 1 && !TERMINAL_TASK_STATUSES.has(row.status) };
  }

  close(): void {
    this.#db.close();
  }

  #end(id: string, status: 'completed' | 'failed'): TaskStatus {
    const row = this.#existing(id);
    if (!TERMINAL_TASK_STATUSES.has(row.status)) this.#setStatus(id, status);
    return this.get(id)!.status;
  }

  #setStatus(id: string, status: TaskStatus): void {
    this.#statements.setStatus.run(status, id);
  }

  #existing(id: string): { status: TaskStatus; cancel_requested: number } {
    const row = this.#row(requireNonEmptyString('id', id));
    if (row === undefined) throw new ProtocolStateError(`no task ${JSON.stringify(id)}`);
    return row;
  }

  #row(id: string): { status: TaskStatus; cancel_requested: number } | undefined {
    return this.#statements.row.get(id);
  }
}

function prepare(db: Database.Database) {
  return {
    insert: prepareKept(db, 'INSERT INTO tasks (id, status) VALUES (?, ?)'),
    requestCancel: prepareKept(db, 'UPDATE tasks SET cancel_requested = 1 WHERE id = ?'),
    setStatus: prepareKept(db, 'UPDATE tasks SET status = ? WHERE id = ?'),
    row: prepareKept<{ status: TaskStatus; cancel_requested: number }>(db, 'SELECT status, cancel_requested FROM tasks WHERE id = ?'),
  };
}
