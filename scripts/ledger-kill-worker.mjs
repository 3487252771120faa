// One process of the kill test: opens the ledger (which must exist) — a SQLite file, or PostgreSQL when the
// path is a postgres:// URL — and charges keys in a random order, for ever, until it is killed. Each key always
// carries the same arguments, so a replay must return the first result.
import { chargeAccount, PostgresMutationLedger, sqliteLedger } from '../dist/reference.js';

const [path, keys, schema] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const ledger = /^postgres(ql)?:/.test(path)
  ? await PostgresMutationLedger.open({ connectionString: path, schema, poolSize: 2 })
  : sqliteLedger(path, { busyTimeoutMs: 30_000 });
process.stdout.write('ready\n');
// Two charges in flight at a time (one per pooled connection on PostgreSQL), so a kill often lands inside a transaction.
async function lane() {
  for (;;) {
    const key = Math.floor(Math.random() * keys);
    await ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `kill-${key}` });
  }
}
await Promise.all([lane(), lane()]);
