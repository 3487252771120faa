import { InvalidArgumentError } from './errors.js';
import { requireInteger, requireNonEmptyString } from './validate-arguments.js';

/**
 * A business mutation the ledger can run exactly once per idempotency key. The ledger is generic over it:
 * `bind` validates the arguments and returns the ones the key is bound to (the fingerprint covers them and
 * the operation name); `effect` computes the result inside the ledger's transaction.
 */
export interface LedgerOperation<Args, Result> {
  readonly name: string;
  /** Receipts are `<prefix>-001`, `<prefix>-002`, … from the ledger's execution counter. */
  readonly receiptPrefix: string;
  bind(args: Args): Record<string, unknown>;
  effect(args: Args, context: { readonly receipt: string; readonly execution: number }): Result;
}

export interface ChargeArguments {
  readonly account: string;
  readonly cents: number;
}

export interface ChargeResult {
  readonly receipt: string;
  readonly account: string;
  readonly cents: number;
  readonly status: 'charged';
}

/** charge_account(account, cents): the lesson's mutation. Non-positive amounts are rejected. */
export const chargeAccount: LedgerOperation<ChargeArguments, ChargeResult> = {
  name: 'charge_account',
  receiptPrefix: 'charge',
  bind(args) {
    const account = requireNonEmptyString('account', args?.account);
    const cents = requireInteger('cents', args.cents, Number.MIN_SAFE_INTEGER);
    if (cents <= 0) throw new InvalidArgumentError('cents', `must be a positive amount, not ${cents}`);
    return { account, cents };
  },
  effect: (args, { receipt }) => ({ receipt, account: args.account, cents: args.cents, status: 'charged' }),
};

export interface ReservationArguments {
  readonly tenant: string;
  readonly sku: string;
  readonly quantity: number;
}

/** A reservation record: what was reserved and its id; no secret or payment data. */
export interface Reservation {
  readonly reservation: string;
  readonly tenant: string;
  readonly sku: string;
  readonly quantity: number;
}

/** reserve_inventory(tenant, sku, quantity): the practice lab's mutation; the operation name is bound into the key. */
export const reserveInventory: LedgerOperation<ReservationArguments, Reservation> = {
  name: 'reserve_inventory',
  receiptPrefix: 'reservation',
  bind(args) {
    const tenant = requireNonEmptyString('tenant', args?.tenant);
    const sku = requireNonEmptyString('sku', args.sku);
    const quantity = requireInteger('quantity', args.quantity, Number.MIN_SAFE_INTEGER);
    if (quantity <= 0) throw new InvalidArgumentError('quantity', `must be a positive amount, not ${quantity}`);
    return { tenant, sku, quantity };
  },
  effect: (args, { receipt }) => ({ reservation: receipt, tenant: args.tenant, sku: args.sku, quantity: args.quantity }),
};
