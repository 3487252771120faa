import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyMismatchError, InvalidArgumentError } from '../../src/reference/errors.js';
import type { IdempotencyLedger } from '../../src/reference/idempotency-ledger.js';
import { chargeAccount, reserveInventory } from '../../src/reference/ledger-operations.js';

/** Opens a new, empty ledger of the store under test (its own file or schema), with the given options. */
export type OpenLedger = (options?: { keyTtlMs?: number; now?: () => number }) => Promise<IdempotencyLedger>;

/** What a sequence of calls answered, as data: results, replays, rejections; compared across stores. */
type Answer = { result: unknown; replayed: boolean } | { error: string };

async function answer(run: () => Promise<{ result: unknown; replayed: boolean }>): Promise<Answer> {
  try {
    const { result, replayed } = await run();
    return { result, replayed };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

/** A fixed script of charges, reservations, scoped keys and reconciliations: every store must answer it alike. */
export async function scriptAnswers(ledger: IdempotencyLedger): Promise<unknown[]> {
  const answers: unknown[] = [];
  const charge = (account: string, cents: number, key?: string, scope?: string) =>
    answer(() =>
      ledger.execute(
        chargeAccount,
        { account, cents },
        { ...(key === undefined ? {} : { idempotencyKey: key }), ...(scope === undefined ? {} : { scope }) },
      ),
    );
  answers.push(await charge('acct-1', 100, 'k1'));
  answers.push(await charge('acct-1', 100, 'k1'));
  answers.push(await charge('acct-1', 999, 'k1'));
  answers.push(await charge('acct-2', 200));
  answers.push(await charge('acct-2', 200));
  answers.push(await charge('acct-3', 300, 'k1', 'tenant-a'));
  answers.push(await charge('acct-3', 300, 'k1', 'tenant-b'));
  answers.push(await charge('acct-3', 300, 'k1', 'tenant-a'));
  answers.push(await answer(() => ledger.execute(reserveInventory, { tenant: 't', sku: 'sku-1', quantity: 2 }, { idempotencyKey: 'r1' })));
  answers.push(await answer(() => ledger.execute(reserveInventory, { tenant: 't', sku: 'sku-1', quantity: 2 }, { idempotencyKey: 'r1' })));
  answers.push(await answer(() => ledger.execute(chargeAccount, { account: 'acct-4', cents: -1 }, { idempotencyKey: 'k4' })));
  answers.push(await ledger.reconcile('k1'));
  answers.push(await ledger.reconcile('k1', { scope: 'tenant-b' }));
  answers.push(await ledger.reconcile('never'));
  answers.push(await ledger.executionCount());
  return answers;
}

/** The contract every ledger store keeps; `name` says which store. */
export function ledgerContract(name: string, open: OpenLedger): void {
  describe(`the ledger contract on ${name}`, () => {
    it('same key and arguments execute once and replay a fresh copy; other arguments are refused; no key executes every time', async () => {
      const ledger = await open();
      try {
        const first = await ledger.execute(chargeAccount, { account: 'acct-1', cents: 1250 }, { idempotencyKey: 'order-1' });
        expect(first).toEqual({ result: { receipt: 'charge-001', account: 'acct-1', cents: 1250, status: 'charged' }, replayed: false });
        (first.result as { cents: number }).cents = 0;
        const again = await ledger.execute(chargeAccount, { account: 'acct-1', cents: 1250 }, { idempotencyKey: 'order-1' });
        expect(again).toEqual({ result: { receipt: 'charge-001', account: 'acct-1', cents: 1250, status: 'charged' }, replayed: true });
        await expect(ledger.execute(chargeAccount, { account: 'acct-1', cents: 1 }, { idempotencyKey: 'order-1' })).rejects.toThrow(
          IdempotencyKeyMismatchError,
        );
        await expect(ledger.execute(chargeAccount, { account: 'acct-1', cents: 0 }, { idempotencyKey: 'order-2' })).rejects.toThrow(
          InvalidArgumentError,
        );
        await ledger.execute(chargeAccount, { account: 'acct-2', cents: 5 });
        await ledger.execute(chargeAccount, { account: 'acct-2', cents: 5 });
        expect(await ledger.executionCount()).toBe(3);
        expect(await ledger.reconcile('order-1')).toMatchObject({ key: 'order-1', operation: 'charge_account', execution: 1 });
        expect(await ledger.reconcile('order-2')).toBeUndefined();
      } finally {
        await ledger.close();
      }
    });

    it('a key expires after keyTtlMs: the next request runs again and reconcile no longer finds the old record', async () => {
      let now = 1_000_000;
      const ledger = await open({ keyTtlMs: 60_000, now: () => now });
      try {
        expect((await ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' })).replayed).toBe(false);
        now += 59_999;
        expect((await ledger.execute(chargeAccount, { account: 'a', cents: 1 }, { idempotencyKey: 'k' })).replayed).toBe(true);
        now += 1;
        expect(await ledger.reconcile('k')).toBeUndefined();
        const rerun = await ledger.execute(chargeAccount, { account: 'a', cents: 2 }, { idempotencyKey: 'k' });
        expect(rerun).toMatchObject({ replayed: false, result: { receipt: 'charge-002', cents: 2 } });
        expect((await ledger.reconcile('k'))?.execution).toBe(2);
      } finally {
        await ledger.close();
      }
    });

    it('property: any sequence of charges over a few keys executes each key once, replays equal the first, mismatches run nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 2 }), fc.boolean()), { minLength: 1, maxLength: 25 }),
          async (calls) => {
            const ledger = await open();
            try {
              const first = new Map<string, { cents: number; result: unknown }>();
              let unkeyed = 0;
              for (const [key, cents, keyed] of calls) {
                const idempotencyKey = `k${key}`;
                if (!keyed) {
                  await ledger.execute(chargeAccount, { account: 'x', cents });
                  unkeyed++;
                  continue;
                }
                const known = first.get(idempotencyKey);
                const outcome = await answer(() => ledger.execute(chargeAccount, { account: 'x', cents }, { idempotencyKey }));
                if (known === undefined) {
                  expect(outcome).toMatchObject({ replayed: false });
                  first.set(idempotencyKey, { cents, result: (outcome as { result: unknown }).result });
                } else if (known.cents === cents) expect(outcome).toEqual({ result: known.result, replayed: true });
                else expect(outcome).toEqual({ error: 'IdempotencyKeyMismatchError' });
              }
              expect(await ledger.executionCount()).toBe(first.size + unkeyed);
            } finally {
              await ledger.close();
            }
          },
        ),
        { numRuns: 25 },
      );
    }, 120_000);
  });
}
