// One process of the storm: its own ledger connection, CHARGES charges over KEYS shared keys in an order of
// its own, identical arguments per key. Prints {commits, replays, errors, ms} as JSON.
import { chargeAccount, MutationLedger } from '../../dist/reference.js';

const [path, process_, charges, keys] = process.argv.slice(2).map((value, index) => (index === 0 ? value : Number(value)));
const ledger = MutationLedger.open(path);
let commits = 0;
let replays = 0;
const errors = [];
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < charges; i++) {
    const key = (i * 7919 + process_ * 131) % keys;
    try {
      const outcome = ledger.execute(chargeAccount, { account: `acct-${key}`, cents: key + 1 }, { idempotencyKey: `storm-${key}` });
      if (outcome.replayed) replays++;
      else commits++;
    } catch (error) {
      errors.push(`${error.name}: ${error.message}`);
    }
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  ledger.close();
  process.stdout.write(`${JSON.stringify({ commits, replays, errors: errors.slice(0, 3), errorCount: errors.length, ms })}\n`);
  process.stdin.destroy();
});
