// Opens a ledger file that may not exist yet at a given moment (epoch ms, spun for so that separate
// processes start within a millisecond of each other), as replicas starting together would; prints
// "opened" or the error.
import { MutationLedger } from '../../dist/reference.js';

const [path, at] = process.argv.slice(2);
while (Date.now() < Number(at));
try {
  MutationLedger.open(path, { create: true }).close();
  process.stdout.write('opened\n');
} catch (error) {
  process.stdout.write(`${error.name}: ${error.message}\n`);
}
