import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';

let sqlite: typeof Database | undefined;

/**
 * better-sqlite3, loaded when the first database is opened: its native addon and a dozen modules are no cost of
 * importing mcprely (the Node API, the reference) for what opens no ledger.
 */
function betterSqlite(): typeof Database {
  sqlite ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return sqlite;
}

/**
 * Every better-sqlite3 object the reference implementation makes — a database, a prepared statement — is kept
 * reachable until its thread ends, closed or not, so the garbage collector never frees one. They are
 * node::ObjectWrap objects, and better-sqlite3 built against the headers of Node 24.19 or later (what `npm
 * install` compiles on a current Node 24) aborts the whole process when the collector frees one: the destructor
 * wants an entered context, which the collector's weak callbacks do not have ("Assertion failed: (env) !=
 * nullptr" in node::RemoveEnvironmentCleanupHook; nodejs/node#65446). What is still alive when the thread ends is
 * deleted by Node's own cleanup, where that holds. Closing still frees SQLite's memory: what stays is a few hundred
 * bytes per ledger opened, since each prepares its statements once. Pragmas go through `exec`, which makes no
 * statement object (`pragma()` makes one per call); transactions reuse statements better-sqlite3 caches per database.
 */
const kept: object[] = [];

export function openDatabase(path: string, options: Database.Options = {}): Database.Database {
  return keep(new (betterSqlite())(path, options));
}

/** A statement prepared on `db`, kept like the database. */
export function prepareKept<Result = unknown>(db: Database.Database, sql: string): Database.Statement<unknown[], Result> {
  return keep(db.prepare<unknown[], Result>(sql));
}

function keep<T extends object>(value: T): T {
  kept.push(value);
  return value;
}
