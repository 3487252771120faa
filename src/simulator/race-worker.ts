import { parentPort, workerData } from 'node:worker_threads';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import { MutationLedger } from '../reference/mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import type { RaceJob, RaceOutcome } from './race.js';

// One racer of the two-connections fixture, on its own thread with its own SQLite connection: it opens
// the ledger, waits at the barrier until every racer is ready, then executes once.
const job = workerData as RaceJob;
const ledger = MutationLedger.open(job.path);
const barrier = new Int32Array(job.barrier);
Atomics.add(barrier, 0, 1);
Atomics.notify(barrier, 0);
for (let ready = Atomics.load(barrier, 0); ready < job.racers; ready = Atomics.load(barrier, 0)) Atomics.wait(barrier, 0, ready, 50);
let outcome: RaceOutcome;
try {
  const { result, replayed } = ledger.execute(fixtureOperation(job.operation, job.fingerprint), job.arguments, { idempotencyKey: job.key });
  outcome = { connection: job.connection, result, replayed };
} catch (error) {
  outcome = {
    connection: job.connection,
    error: error instanceof IdempotencyKeyMismatchError ? error.message : `${(error as Error).name}: ${(error as Error).message}`,
  };
}
ledger.close();
parentPort!.postMessage(outcome);
