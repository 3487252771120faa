// One independent ledger connection in its own process, for the race tests: opens the ledger, says
// "ready", waits at the barrier (a line on stdin), then charges once and prints the outcome as JSON.
import { chargeAccount, MutationLedger } from '../../dist/reference.js';

const [path, key, account, cents] = process.argv.slice(2);
const ledger = MutationLedger.open(path);
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  try {
    const outcome = ledger.execute(chargeAccount, { account, cents: Number(cents) }, { idempotencyKey: key });
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: `${error.name}: ${error.message}` })}\n`);
  } finally {
    ledger.close();
    process.stdin.destroy();
  }
});
