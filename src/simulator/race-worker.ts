import { parentPort, workerData } from 'node:worker_threads';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import { MutationLedger } from '../reference/mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import { BARRIER_DEADLINE_MS, type RaceJob, type RaceOutcome, SIMULATED_LEDGER } from './race.js';

// One racer of the two-connections fixture, on its own thread with its own SQLite connection: it opens
// the ledger, waits at the barrier until every racer is ready, then executes once.
const job = workerData as RaceJob;
const describe = (error: unknown) =>
  error instanceof IdempotencyKeyMismatchError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
let outcome: RaceOutcome | undefined;
let ledger: MutationLedger | undefined;
try {
  ledger = MutationLedger.open(job.path, SIMULATED_LEDGER);
} catch (error) {
  outcome = { connection: job.connection, error: `the ledger did not open: ${describe(error)}` };
}
// Every racer arrives at the barrier, even one whose ledger did not open, so no other waits for it for ever;
// and none waits past the deadline.
const barrier = new Int32Array(job.barrier);
Atomics.add(barrier, 0, 1);
Atomics.notify(barrier, 0);
const deadline = Date.now() + BARRIER_DEADLINE_MS;
for (let ready = Atomics.load(barrier, 0); ready < job.racers && Date.now() < deadline; ready = Atomics.load(barrier, 0))
  Atomics.wait(barrier, 0, ready, 50);
if (ledger !== undefined) {
  try {
    const { result, replayed } = ledger.execute(fixtureOperation(job.operation, job.fingerprint), job.arguments, {
      idempotencyKey: job.key,
    });
    outcome = { connection: job.connection, result, replayed };
  } catch (error) {
    outcome = { connection: job.connection, error: describe(error) };
  } finally {
    ledger.close();
  }
}
parentPort!.postMessage(outcome);
