import { parentPort, workerData } from 'node:worker_threads';
import { IdempotencyKeyMismatchError } from '../reference/errors.js';
import type { IdempotencyLedger } from '../reference/idempotency-ledger.js';
import { MutationLedger } from '../reference/mutation-ledger.js';
import { PostgresMutationLedger } from '../reference/postgres-mutation-ledger.js';
import { fixtureOperation } from './fixture-operation.js';
import {
  BARRIER_DEADLINE_MS,
  type ProcessRaceJob,
  type RaceJob,
  type RaceMessage,
  type RaceOutcome,
  ledgerClock,
  keyOptions,
  racerLedgerOptions,
} from './race.js';

// One racer of the two-connections fixture. On a thread (SQLite): its own connection to the ledger file; it
// opens it, waits at the barrier until every racer is ready, then executes once. As a process (PostgreSQL):
// its own connection pool; it opens it, says it is ready, waits for the parent's go, then executes once.
const describe = (error: unknown) =>
  error instanceof IdempotencyKeyMismatchError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;

if (parentPort !== null) raceOnThread(workerData as RaceJob);
else if (process.send !== undefined) process.once('message', (message: { job: ProcessRaceJob }) => void raceAsProcess(message.job));

function raceOnThread(job: RaceJob): void {
  let outcome: RaceOutcome | undefined;
  let ledger: MutationLedger | undefined;
  try {
    ledger = MutationLedger.open(job.path, racerLedgerOptions(job));
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
      const { result, replayed } = ledger.execute(
        fixtureOperation(job.operation, job.fingerprint),
        job.arguments,
        keyOptions(job.key, job.scope),
      );
      outcome = { connection: job.connection, result, replayed };
    } catch (error) {
      outcome = { connection: job.connection, error: describe(error) };
    } finally {
      ledger.close();
    }
  }
  parentPort!.postMessage(outcome);
}

async function raceAsProcess(job: ProcessRaceJob): Promise<void> {
  const send = (message: RaceMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
  let ledger: IdempotencyLedger | undefined;
  let outcome: RaceOutcome;
  try {
    const lifetime = job.keyTtlMs === undefined ? {} : ledgerClock(job.keyTtlMs, () => job.now ?? 0);
    ledger = await PostgresMutationLedger.open({
      connectionString: job.databaseUrl,
      schema: job.schema,
      create: true,
      poolSize: 1,
      ...lifetime,
    });
  } catch (error) {
    outcome = { connection: job.connection, error: `the ledger did not open: ${describe(error)}` };
  }
  // Ready even when the ledger did not open, so the others are not held back.
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  await send({ ready: true });
  await go;
  if (ledger !== undefined) {
    try {
      const { result, replayed } = await ledger.execute(
        fixtureOperation(job.operation, job.fingerprint),
        job.arguments,
        keyOptions(job.key, job.scope),
      );
      outcome = { connection: job.connection, result, replayed };
    } catch (error) {
      outcome = { connection: job.connection, error: describe(error) };
    } finally {
      await ledger.close().catch(() => {});
    }
  }
  await send({ outcome: outcome! });
  process.disconnect();
}
