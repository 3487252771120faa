// 1 000 000 progress pushes into a capacity-64 BoundedSseBuffer against a plain ring buffer doing the same
// pushes (drop the oldest when full). Target: at most 2× the ring buffer's time. Interleaved rounds, medians.
import { BoundedSseBuffer } from '../../dist/reference.js';
import { median } from '../measure.mjs';

const PUSHES = 1_000_000;
const CAPACITY = 64;
const ROUNDS = Number(process.env.ROUNDS ?? 7);

// The same events for both: progress for 8 tokens in turn (no two in a row share a token, so nothing
// coalesces and every push past capacity evicts), and a final response every 1 000 pushes.
const events = [];
for (let i = 0; i < 4096; i++)
  events.push(
    i % 1000 === 999 ? { type: 'final', requestId: i, response: null } : { type: 'progress', progressToken: `t${i % 8}`, progress: i },
  );

class PlainRing {
  constructor(capacity) {
    this.slots = new Array(capacity).fill(undefined);
    this.head = 0;
    this.size = 0;
  }
  push(event) {
    if (this.size === this.slots.length) {
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.slots.length;
      this.size--;
    }
    this.slots[(this.head + this.size) % this.slots.length] = event;
    this.size++;
  }
  drain() {
    const out = [];
    for (let i = 0; i < this.size; i++) out.push(this.slots[(this.head + i) % this.slots.length]);
    this.slots.fill(undefined);
    this.head = 0;
    this.size = 0;
    return out;
  }
}

// One copy of the loop per contender (made by new Function), so neither shares a call site, and so an
// inline cache, with the other.
const makeRun = () =>
  new Function(
    'events',
    'PUSHES',
    `return function run(buffer) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < PUSHES; i++) {
        buffer.push(events[i & 4095]);
        if (i % 10000 === 9999) buffer.drain();
      }
      return Number(process.hrtime.bigint() - start) / 1e6;
    };`,
  )(events, PUSHES);
const runRing = makeRun();
const runOurs = makeRun();

const ring = [];
const ours = [];
for (let round = 0; round < ROUNDS; round++) {
  ring.push(runRing(new PlainRing(CAPACITY)));
  ours.push(runOurs(new BoundedSseBuffer(CAPACITY)));
}
const ringMs = median(ring);
const oursMs = median(ours);
console.log(`\nBounded SSE buffer: ${PUSHES.toLocaleString('en')} pushes, capacity ${CAPACITY}, median of ${ROUNDS} interleaved rounds`);
console.log(`  plain ring buffer   ${ringMs.toFixed(1).padStart(7)} ms`);
console.log(`  BoundedSseBuffer    ${oursMs.toFixed(1).padStart(7)} ms   ${(oursMs / ringMs).toFixed(2)}× (target ≤ 2×)`);
process.exitCode = oursMs / ringMs <= 2 ? 0 : 1;
