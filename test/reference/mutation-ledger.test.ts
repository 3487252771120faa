import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { existsSync, linkSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyMismatchError, InvalidArgumentError, KeyInFlightError, LedgerError } from '../../src/reference/errors.js';
import { chargeAccount, reserveInventory } from '../../src/reference/ledger-operations.js';
import { MutationLedger } from '../../src/reference/mutation-ledger.js';
// Raw connections as the ledger makes them: kept from the garbage collector (better-sqlite3 on Node 24, see the module).
import { openDatabase } from '../../src/reference/kept-sqlite.js';
import { classifyRetry } from '../../src/reference/classify-retry.js';

const ledgerPath = () => join(mkdtempSync(join(tmpdir(), 'mcprely-ledger-')), 'ledger.sqlite');

describe('MutationLedger', () => {
  it('executes a new JSON-RPC id without a key every time: ids are not idempotency', () => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    const first = ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 });
    const second = ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 });
    expect([first.result.receipt, second.result.receipt]).toEqual(['charge-001', 'charge-002']);
    expect(ledger.executionCount()).toBe(2);
    ledger.close();
  });

  it('replays one key with identical arguments, and rejects it with other arguments without executing', () => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    const first = ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 }, { idempotencyKey: 'checkout-7' });
    expect(first).toEqual({ result: { receipt: 'charge-001', account: 'acct-7', cents: 1200, status: 'charged' }, replayed: false });
    expect(ledger.execute(chargeAccount, { cents: 1200, account: 'acct-7' }, { idempotencyKey: 'checkout-7' })).toEqual({
      result: first.result,
      replayed: true,
    });
    expect(() => ledger.execute(chargeAccount, { account: 'acct-7', cents: 9900 }, { idempotencyKey: 'checkout-7' })).toThrow(
      IdempotencyKeyMismatchError,
    );
    expect(() => ledger.execute(chargeAccount, { account: 'acct-7', cents: 9900 }, { idempotencyKey: 'checkout-7' })).toThrow(
      'idempotency key "checkout-7" was reused with different arguments',
    );
    expect(ledger.executionCount()).toBe(1);
    ledger.close();
  });

  it('keeps record and counter across close and reopen', () => {
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { create: true });
    const first = ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' });
    ledger.execute(chargeAccount, { account: 'b', cents: 6 });
    ledger.close();
    const reopened = MutationLedger.open(path);
    expect(reopened.executionCount()).toBe(2);
    expect(reopened.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' })).toEqual({
      result: first.result,
      replayed: true,
    });
    expect(reopened.execute(chargeAccount, { account: 'c', cents: 7 }).result.receipt).toBe('charge-003');
    reopened.close();
  });

  it('returns defensive copies: mutating a result never changes a replay', () => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    const first = ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' });
    (first.result as { cents: number }).cents = 1_000_000;
    (first.result as unknown as Record<string, unknown>)['refunded'] = true;
    const replay = ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' });
    expect(replay.result).toEqual({ receipt: 'charge-001', account: 'a', cents: 5, status: 'charged' });
    expect(replay.result).not.toBe(first.result);
    ledger.close();
  });

  it('runs reserve_inventory on the same mechanism, the operation name bound into the key (the practice lab)', () => {
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { create: true });
    const args = { tenant: 't1', sku: 'sku-9', quantity: 3 };
    const first = ledger.execute(reserveInventory, args, { idempotencyKey: 'order-1' });
    expect(first.result).toEqual({ reservation: 'reservation-001', tenant: 't1', sku: 'sku-9', quantity: 3 });
    expect(JSON.stringify(first.result)).not.toMatch(/card|secret|payment|cents/);
    expect(ledger.execute(reserveInventory, args, { idempotencyKey: 'order-1' }).replayed).toBe(true);
    expect(() => ledger.execute(reserveInventory, { ...args, quantity: 4 }, { idempotencyKey: 'order-1' })).toThrow(
      IdempotencyKeyMismatchError,
    );
    // The same key for another operation is another business intent: rejected, not replayed.
    expect(() => ledger.execute(chargeAccount, { account: 't1', cents: 3 }, { idempotencyKey: 'order-1' })).toThrow(
      IdempotencyKeyMismatchError,
    );
    expect(ledger.executionCount()).toBe(1);
    (first.result as { quantity: number }).quantity = 99;
    ledger.close();
    // A committed execution whose response was lost: reconcile by key after reopening.
    const reopened = MutationLedger.open(path);
    expect(reopened.reconcile('order-1')).toMatchObject({
      key: 'order-1',
      operation: 'reserve_inventory',
      execution: 1,
      result: { reservation: 'reservation-001', quantity: 3 },
    });
    expect(reopened.reconcile('never-seen')).toBeUndefined();
    reopened.close();
    // Automatic retry is disabled when the client did not provide a key.
    expect(classifyRetry({ sideEffect: 'mutation' }).classification).toBe('UNSAFE');
    expect(classifyRetry({ sideEffect: 'mutation', idempotencyKeyArgument: 'idempotencyKey' }).classification).toBe('CONDITIONAL');
  });

  it.each([
    ['zero cents', () => chargeAccount, { account: 'a', cents: 0 }, 'cents'],
    ['negative cents', () => chargeAccount, { account: 'a', cents: -5 }, 'cents'],
    ['fractional cents', () => chargeAccount, { account: 'a', cents: 1.5 }, 'cents'],
    ['NaN cents', () => chargeAccount, { account: 'a', cents: Number.NaN }, 'arguments'],
    ['an empty account', () => chargeAccount, { account: '', cents: 5 }, 'account'],
    ['zero quantity', () => reserveInventory, { tenant: 't', sku: 's', quantity: 0 }, 'quantity'],
    ['arguments that are not JSON', () => chargeAccount, { account: 'a', cents: 5, at: new Date(0) }, 'arguments'],
    ['a bigint', () => chargeAccount, { account: 'a', cents: 5n as unknown as number }, 'arguments'],
  ])('rejects %s with a typed error and executes nothing', (_, operation, args, argument) => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    let thrown: unknown;
    try {
      ledger.execute(operation() as typeof chargeAccount, args as never, { idempotencyKey: 'k' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).argument).toBe(argument);
    expect(ledger.executionCount()).toBe(0);
    expect(ledger.reconcile('k')).toBeUndefined();
    ledger.close();
  });

  it('rejects bad keys and options by name', () => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    expect(() => ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: '' })).toThrow(
      expect.objectContaining({ argument: 'idempotencyKey' }),
    );
    expect(() => ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'x'.repeat(256) })).toThrow(/at most 255/);
    expect(() => MutationLedger.open(ledgerPath(), { busyTimeoutMs: -1 })).toThrow(expect.objectContaining({ argument: 'busyTimeoutMs' }));
    ledger.close();
  });

  it('refuses a file that is not a SQLite database, and leaves it untouched', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mcprely-ledger-')), 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    expect(() => MutationLedger.open(path)).toThrow(LedgerError);
    expect(() => MutationLedger.open(path)).toThrow(`${path} is not a SQLite database; give the ledger its own file`);
  });

  it('fails clearly when another connection holds the lock past the busy timeout, and loses no committed record', () => {
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { busyTimeoutMs: 100, create: true });
    const committed = ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'kept' });
    const other = openDatabase(path);
    other.exec('BEGIN EXCLUSIVE');
    expect(() => ledger.execute(chargeAccount, { account: 'b', cents: 6 }, { idempotencyKey: 'blocked' })).toThrow(
      /stayed locked by another connection past the busy timeout; nothing was committed/,
    );
    other.exec('ROLLBACK');
    other.close();
    expect(ledger.reconcile('kept')?.result).toEqual(committed.result);
    expect(ledger.reconcile('blocked')).toBeUndefined();
    expect(ledger.executionCount()).toBe(1);
    expect(ledger.execute(chargeAccount, { account: 'b', cents: 6 }, { idempotencyKey: 'blocked' }).replayed).toBe(false);
    ledger.close();
  });
});

/** Starts `count` processes, each with its own connection, and releases them together at a barrier. */
async function race(
  count: number,
  path: string,
  argsFor: (index: number) => [key: string, account: string, cents: number],
): Promise<unknown[]> {
  const racer = new URL('./ledger-racer.mjs', import.meta.url).pathname;
  const children = Array.from({ length: count }, (_, index) =>
    spawn(process.execPath, [racer, path, ...argsFor(index).map(String)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = children.map(
    (child) =>
      new Promise<string[]>((resolve) => {
        let text = '';
        child.stdout.on('data', (chunk) => (text += chunk));
        child.on('close', () => resolve(text.trim().split('\n')));
      }),
  );
  const ready = children.map((child) => new Promise<void>((resolve) => child.stdout.once('data', () => resolve())));
  await Promise.all(ready);
  for (const child of children) child.stdin.write('go\n');
  return (await Promise.all(lines)).map((output) => JSON.parse(output.at(-1)!));
}

describe('separate processes racing on one key', () => {
  it.each([2, 8])('%i processes, identical arguments: exactly one execution, equal results', async (count) => {
    const path = ledgerPath();
    MutationLedger.open(path, { create: true }).close();
    const outcomes = (await race(count, path, () => ['checkout-7', 'acct-7', 1200])) as {
      result: unknown;
      replayed: boolean;
      error?: string;
    }[];
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([]);
    expect(new Set(outcomes.map((outcome) => JSON.stringify(outcome.result))).size).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    const ledger = MutationLedger.open(path);
    expect(ledger.executionCount()).toBe(1);
    ledger.close();
  });

  it('8 processes, one key, two argument sets: one execution, the others replay or are rejected', async () => {
    const path = ledgerPath();
    MutationLedger.open(path, { create: true }).close();
    const outcomes = (await race(8, path, (index) => ['k', 'acct', index % 2 === 0 ? 100 : 200])) as {
      result?: { cents: number };
      replayed?: boolean;
      error?: string;
    }[];
    const winner = outcomes.find((outcome) => outcome.replayed === false)!;
    expect(outcomes.filter((outcome) => outcome.replayed === false)).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.error !== undefined) expect(outcome.error).toMatch(/^IdempotencyKeyMismatchError/);
      else expect(outcome.result).toEqual(winner.result);
    }
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toHaveLength(4);
    const ledger = MutationLedger.open(path);
    expect(ledger.executionCount()).toBe(1);
    ledger.close();
  });
});

describe('separate processes opening a new ledger file at the same moment', () => {
  it('every one opens it: SQLite finding the file busy while another switches it to WAL is waited out', { timeout: 60_000 }, async () => {
    const opener = new URL('./ledger-opener.mjs', import.meta.url).pathname;
    const failures: string[] = [];
    for (let round = 0; round < 4; round++) {
      const path = ledgerPath();
      const at = String(Date.now() + 600);
      const outputs = Array.from(
        { length: 6 },
        () =>
          new Promise<string>((resolve) => {
            const child = spawn(process.execPath, [opener, path, at], { stdio: ['ignore', 'pipe', 'inherit'] });
            let text = '';
            child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            child.on('close', () => resolve(text.trim()));
          }),
      );
      for (const output of await Promise.all(outputs)) if (output !== 'opened') failures.push(output);
    }
    expect(failures).toEqual([]);
  });

  it('threads lined up within microseconds, 100 rounds: every open succeeds', { timeout: 60_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcprely-ledger-open-'));
    const barrier = new SharedArrayBuffer(4);
    const script = new URL('./ledger-open-worker.mjs', import.meta.url);
    const errors = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<string[]>((resolve, reject) => {
            const worker = new Worker(script, { workerData: { directory, rounds: 100, racers: 4, barrier } });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    expect(errors.flat()).toEqual([]);
  });
});

describe('the ledger knows which file it is', () => {
  it('refuses a file reached under two names (a hard link): each name would keep its own write-ahead log', () => {
    const path = ledgerPath();
    MutationLedger.open(path, { create: true }).close();
    linkSync(path, `${path}.second-name`);
    expect(() => MutationLedger.open(path)).toThrow(/reached under 2 names \(hard links\)/);
    expect(() => MutationLedger.open(`${path}.second-name`)).toThrow(expect.objectContaining({ code: 'HARD_LINKED' }));
  });

  it('refuses to recreate a deleted ledger silently: every key would execute again', () => {
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { create: true });
    ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'paid' });
    ledger.close();
    rmSync(path);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    expect(() => MutationLedger.open(path)).toThrow(/no ledger exists here/);
    expect(existsSync(path)).toBe(false);
    const fresh = MutationLedger.open(path, { create: true });
    expect(fresh.executionCount()).toBe(0);
    fresh.close();
  });

  it('refuses a zero-length file, and a SQLite database that is not a ledger', () => {
    const empty = ledgerPath();
    writeFileSync(empty, '');
    expect(() => MutationLedger.open(empty)).toThrow(/is empty \(0 bytes\)/);
    const other = ledgerPath();
    const db = openDatabase(other);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    expect(() => MutationLedger.open(other)).toThrow(/not a ledger/);
  });

  it('with create, an existing ledger is opened as it is: its records stay', () => {
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { create: true });
    const first = ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'kept' });
    ledger.close();
    const again = MutationLedger.open(path, { create: true });
    expect(again.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'kept' })).toEqual({ ...first, replayed: true });
    again.close();
  });
});

// The ledger under SIGKILL (4 s of processes killed at random moments): ledger-kill.test.ts, npm run test:live.

describe('key lifetime, scope and in-flight behaviour', () => {
  it('a key expires after keyTtlMs: a later request runs again and reconcile no longer finds the old record', () => {
    let now = 1_000_000;
    const path = ledgerPath();
    const ledger = MutationLedger.open(path, { create: true, keyTtlMs: 60_000, now: () => now });
    const first = ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' });
    now += 59_999;
    expect(ledger.execute(chargeAccount, { account: 'a', cents: 5 }, { idempotencyKey: 'k' })).toEqual({ ...first, replayed: true });
    expect(ledger.reconcile('k')?.execution).toBe(1);
    now += 1;
    expect(ledger.reconcile('k')).toBeUndefined();
    // Expired, the key is free: even other arguments run (the old binding is gone), once.
    const again = ledger.execute(chargeAccount, { account: 'a', cents: 6 }, { idempotencyKey: 'k' });
    expect(again.replayed).toBe(false);
    expect(ledger.reconcile('k')).toMatchObject({ execution: 2, result: again.result });
    expect(ledger.executionCount()).toBe(2);
    ledger.close();
    // Without a lifetime the same file keeps the record for ever.
    const forever = MutationLedger.open(path, { now: () => now + 10 ** 9 });
    expect(forever.reconcile('k')?.execution).toBe(2);
    forever.close();
  });

  it('a ledger written before keys had a time gains the column; its old records never expire', () => {
    const path = ledgerPath();
    const old = openDatabase(path);
    old.exec(`
      CREATE TABLE execution_counter (id INTEGER PRIMARY KEY CHECK (id = 1), executions INTEGER NOT NULL);
      INSERT INTO execution_counter (id, executions) VALUES (1, 1);
      CREATE TABLE idempotency_records (
        key TEXT PRIMARY KEY, operation TEXT NOT NULL, fingerprint TEXT NOT NULL, result_json TEXT NOT NULL, execution INTEGER NOT NULL
      );
      CREATE TABLE effects (receipt TEXT PRIMARY KEY, operation TEXT NOT NULL, idempotency_key TEXT, result_json TEXT NOT NULL);
    `);
    old.close();
    const seed = MutationLedger.open(path);
    const print = seed.execute(chargeAccount, { account: 'x', cents: 1 }, { idempotencyKey: 'seed' });
    seed.close();
    const raw = openDatabase(path);
    raw.exec("UPDATE idempotency_records SET created_at = 0 WHERE key = 'seed'");
    raw.close();
    const ledger = MutationLedger.open(path, { keyTtlMs: 1, now: () => 10 ** 12 });
    expect(ledger.execute(chargeAccount, { account: 'x', cents: 1 }, { idempotencyKey: 'seed' })).toEqual({ ...print, replayed: true });
    ledger.close();
  });

  it('keys are scoped: one key in two tenants is two records; within a tenant it replays or is rejected as usual', () => {
    const ledger = MutationLedger.open(ledgerPath(), { create: true });
    const reserve = (tenant: string, quantity: number) =>
      ledger.execute(reserveInventory, { tenant, sku: 'sku-1', quantity }, { idempotencyKey: 'checkout-7', scope: tenant });
    const a = reserve('tenant-a', 2);
    const b = reserve('tenant-b', 2);
    expect([a.replayed, b.replayed]).toEqual([false, false]);
    expect(a.result).not.toEqual(b.result);
    expect(reserve('tenant-a', 2)).toEqual({ ...a, replayed: true });
    expect(() => reserve('tenant-b', 3)).toThrow(IdempotencyKeyMismatchError);
    // The key is named as the caller gave it, with its scope; never as the ledger stores it.
    let mismatch: unknown;
    try {
      reserve('tenant-b', 3);
    } catch (error) {
      mismatch = error;
    }
    expect(mismatch).toMatchObject({
      key: 'checkout-7',
      scope: 'tenant-b',
      message: 'idempotency key "checkout-7" (scope "tenant-b") was reused with different arguments',
    });
    expect((mismatch as Error).message).not.toContain('\\u0000');
    expect(new KeyInFlightError('k1', 't1').message).toMatch(/^idempotency key "k1" \(scope "t1"\) may be in flight/);
    expect(ledger.reconcile('checkout-7', { scope: 'tenant-a' })?.result).toEqual(a.result);
    expect(ledger.reconcile('checkout-7')).toBeUndefined();
    // A global key never collides with a scoped one of the same text.
    expect(ledger.execute(chargeAccount, { account: 'g', cents: 1 }, { idempotencyKey: 'checkout-7' }).replayed).toBe(false);
    expect(ledger.executionCount()).toBe(3);
    expect(() => ledger.execute(chargeAccount, { account: 'g', cents: 1 }, { idempotencyKey: 'k', scope: '' })).toThrow(/scope/);
    expect(() => ledger.execute(chargeAccount, { account: 'g', cents: 1 }, { idempotencyKey: 'a\u0000b' })).toThrow(/U\+0000/);
    ledger.close();
  });

  /** Another process starts executing `key` and holds it in flight for `holdMs`; resolves, once it has claimed it, with its outcome to come. */
  async function holdInFlight(path: string, key: string, holdMs: number): Promise<{ done: Promise<unknown> }> {
    const holder = spawn(process.execPath, [new URL('./ledger-holder.mjs', import.meta.url).pathname, path, key, String(holdMs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    holder.stdout.on('data', (chunk) => (text += chunk));
    const done = new Promise<unknown>((resolve) => holder.on('close', () => resolve(JSON.parse(text.trim().split('\n').at(-1)!))));
    await new Promise<void>((resolve) => {
      const look = () => (text.includes('claimed') ? resolve() : setTimeout(look, 5));
      look();
    });
    return { done };
  }

  it('whileInFlight conflict: a request for a key another process is executing fails at once, having run nothing', {
    timeout: 30_000,
  }, async () => {
    const path = ledgerPath();
    MutationLedger.open(path, { create: true }).close();
    const { done } = await holdInFlight(path, 'k', 1500);
    const ledger = MutationLedger.open(path, { whileInFlight: 'conflict' });
    const started = Date.now();
    expect(() => ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 }, { idempotencyKey: 'k' })).toThrow(KeyInFlightError);
    expect(Date.now() - started).toBeLessThan(1000);
    await done;
    // Once the first has committed, the retry replays it.
    expect(ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 }, { idempotencyKey: 'k' }).replayed).toBe(true);
    expect(ledger.executionCount()).toBe(1);
    ledger.close();
  });

  it('whileInFlight wait (the default): the request waits for the execution in flight, then replays its result', {
    timeout: 30_000,
  }, async () => {
    const path = ledgerPath();
    MutationLedger.open(path, { create: true }).close();
    const { done } = await holdInFlight(path, 'k', 800);
    const ledger = MutationLedger.open(path);
    const outcome = ledger.execute(chargeAccount, { account: 'acct-7', cents: 1200 }, { idempotencyKey: 'k' });
    const first = (await done) as { result: unknown; replayed: boolean };
    expect(first.replayed).toBe(false);
    expect(outcome).toEqual({ result: first.result, replayed: true });
    expect(ledger.executionCount()).toBe(1);
    ledger.close();
  });
});
