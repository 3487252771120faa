import type { LedgerOperation } from '../reference/ledger-operations.js';

/**
 * The business effect of a manifest operation inside the reference ledger: a receipt and the bound
 * arguments. `fingerprint` lists the arguments bound to the key; a policy without one binds nothing, so a
 * reused key replays whatever it first stored (the flaw the key-reuse fixture exposes).
 */
export function fixtureOperation(
  name: string,
  fingerprint: readonly string[] | null,
): LedgerOperation<Record<string, unknown>, Record<string, unknown>> {
  return {
    name,
    receiptPrefix: 'receipt',
    bind(args) {
      const bound: Record<string, unknown> = {};
      for (const argument of fingerprint ?? []) bound[argument] = args[argument];
      return bound;
    },
    effect: (args, { receipt }) => ({ receipt, ...args }),
  };
}
