import type { LedgerOperation } from './ledger-operations.js';
import { type Execution, type KeyOptions, type LedgerOptions, type LedgerRecord, MutationLedger } from './mutation-ledger.js';

/**
 * The one contract of the reference ledger, whatever holds the records: the same key with the same arguments
 * executes once and replays the stored result (a fresh copy); with other arguments it is rejected
 * (IdempotencyKeyMismatchError) and executes nothing; no key executes every time; `reconcile` finds a committed
 * key; errors of the store are LedgerErrors that say what to do. MutationLedger (SQLite, synchronous) answers
 * it through `sqliteLedger`; PostgresMutationLedger answers it natively.
 */
export interface IdempotencyLedger {
  execute<Args, Result>(operation: LedgerOperation<Args, Result>, args: Args, options?: KeyOptions): Promise<Execution<Result>>;
  reconcile(idempotencyKey: string, options?: { scope?: string }): Promise<LedgerRecord | undefined>;
  executionCount(): Promise<number>;
  close(): Promise<void>;
}

/** The SQLite ledger behind the asynchronous contract (each call runs to the end before its promise settles). */
export function sqliteLedger(path: string, options: LedgerOptions = {}): IdempotencyLedger {
  const ledger = MutationLedger.open(path, options);
  return {
    execute: async (operation, args, keyOptions) => ledger.execute(operation, args, keyOptions),
    reconcile: async (key, keyOptions) => ledger.reconcile(key, keyOptions),
    executionCount: async () => ledger.executionCount(),
    close: async () => ledger.close(),
  };
}
