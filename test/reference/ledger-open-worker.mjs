// One of several threads that open the same new ledger files at the same instant, round after round: each
// round starts when every thread has reached it (an Atomics barrier), which lines the opens up within
// microseconds. Posts the errors it met.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { MutationLedger } from '../../dist/reference.js';

const { directory, rounds, racers, barrier } = workerData;
const arrived = new Int32Array(barrier);
const errors = [];
for (let round = 0; round < rounds; round++) {
  Atomics.add(arrived, 0, 1);
  Atomics.notify(arrived, 0);
  for (let seen = Atomics.load(arrived, 0); seen < racers * (round + 1); seen = Atomics.load(arrived, 0))
    Atomics.wait(arrived, 0, seen, 20);
  try {
    MutationLedger.open(join(directory, `${round}.sqlite`), { create: true }).close();
  } catch (error) {
    errors.push(`${error.name}: ${error.message}`);
  }
}
parentPort.postMessage(errors);
