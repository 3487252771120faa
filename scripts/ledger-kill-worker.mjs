// One process of the kill test: opens the ledger (which must exist) and charges keys in a random order, for
// ever, until it is killed. Each key always carries the same arguments, so a replay must return the first result.
import { chargeAccount, MutationLedger } from '../dist/reference.js';

const [path, keys] = [process.argv[2], Number(process.argv[3])];
const ledger = MutationLedger.open(path, { busyTimeoutMs: 30_000 });
process.stdout.write('ready\n');
for (;;) {
  const key = Math.floor(Math.random() * keys);
  ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
}
