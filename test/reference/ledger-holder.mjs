// One ledger connection in its own process that holds a key in flight: opens the ledger, starts executing
// charge_account with the key, says "claimed" from inside the transaction, and keeps it open for HOLD_MS
// before committing (a slow business effect). Prints the outcome as JSON.
import { MutationLedger } from '../../dist/reference.js';

const [path, key, holdMs] = process.argv.slice(2);
const slowCharge = {
  name: 'charge_account',
  receiptPrefix: 'charge',
  bind: (args) => ({ account: args.account, cents: args.cents }),
  effect: (args, { receipt }) => {
    process.stdout.write('claimed\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(holdMs));
    return { receipt, account: args.account, cents: args.cents, status: 'charged' };
  },
};
const ledger = MutationLedger.open(path);
try {
  const outcome = ledger.execute(slowCharge, { account: 'acct-7', cents: 1200 }, { idempotencyKey: key });
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
} finally {
  ledger.close();
}
