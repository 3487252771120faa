// One replica process of the ledger storm: opens `pools` PostgresMutationLedgers (each its own connection
// pool, as two server instances in one process would), then sends `charges` charges over `keys` keys, eight
// at a time per pool, and prints one JSON line: each charge's key, arguments, outcome and receipt.
//   node scripts/ledger-storm-worker.mjs <url> <schema> <charges> <keys> <pools> <same|two> <seed>
import { chargeAccount, IdempotencyKeyMismatchError, PostgresMutationLedger } from '../dist/reference.js';

const [url, schema, charges, keys, pools, argumentSets, seed] = process.argv.slice(2);
let state = Number(seed) >>> 0 || 1;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};
const ledgers = await Promise.all(
  Array.from({ length: Number(pools) }, () => PostgresMutationLedger.open({ connectionString: url, schema, poolSize: 4 })),
);
const jobs = Array.from({ length: Number(charges) }, () => {
  const key = Math.floor(random() * Number(keys));
  const variant = argumentSets === 'two' ? Math.floor(random() * 2) : 0;
  return { key: `storm-${key}`, args: { account: `acct-${key}`, cents: key + 1 + variant * 1000 } };
});
const outcomes = [];
let next = 0;
async function lane(ledger) {
  while (next < jobs.length) {
    const job = jobs[next++];
    try {
      const { result, replayed } = await ledger.execute(chargeAccount, job.args, { idempotencyKey: job.key });
      outcomes.push({ key: job.key, cents: job.args.cents, replayed, result });
    } catch (error) {
      outcomes.push({
        key: job.key,
        cents: job.args.cents,
        error: error instanceof IdempotencyKeyMismatchError ? 'mismatch' : `${error.name}: ${error.message}`,
      });
    }
  }
}
await Promise.all(ledgers.flatMap((ledger) => Array.from({ length: 8 }, () => lane(ledger))));
await Promise.all(ledgers.map((ledger) => ledger.close()));
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
