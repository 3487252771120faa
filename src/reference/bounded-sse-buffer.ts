import { BufferFullError, InvalidArgumentError } from './errors.js';
import { requireInteger, type RequestId } from './validate-arguments.js';

export interface ProgressEvent {
  readonly type: 'progress';
  readonly progressToken: RequestId;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface FinalEvent {
  readonly type: 'final';
  readonly requestId: RequestId;
  readonly response: unknown;
}

export type SseEvent = ProgressEvent | FinalEvent;

/** What a push did: kept the event, replaced the newest progress of the same token, evicted the oldest progress, or discarded the new progress. */
export type PushOutcome = 'appended' | 'coalesced' | 'evicted-oldest-progress' | 'discarded';

/** A fixed-size first-in first-out ring. */
class Ring<T> {
  readonly items: (T | undefined)[];
  head = 0;
  size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity).fill(undefined);
  }

  slot(index: number): number {
    const slot = this.head + index;
    return slot >= this.capacity ? slot - this.capacity : slot;
  }

  push(item: T): number {
    const slot = this.slot(this.size);
    this.items[slot] = item;
    this.size++;
    return slot;
  }

  /** At capacity: the new item takes the oldest one's slot, which it returns. */
  replaceOldest(item: T): number {
    const slot = this.head;
    this.items[slot] = item;
    this.head = slot + 1 === this.capacity ? 0 : slot + 1;
    return slot;
  }

  dropOldest(): void {
    this.items[this.head] = undefined;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    this.size--;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.size = 0;
  }
}

/**
 * The bounded queue between an SSE producer and a slow consumer. Progress is replaceable: a progress for the
 * same token as the newest buffered event replaces it (coalescing); at capacity the oldest progress is
 * evicted, or the new progress discarded when there is none to evict. A final response is never dropped:
 * progress is evicted to make room, and a buffer holding only finals refuses another (BufferFullError).
 * Every loss (coalescing included) is counted and marks the stream for an authoritative refetch.
 *
 * Progress and finals sit in two rings, so every push is O(1), including evicting the oldest progress from
 * behind buffered finals. The progress ring always holds the most recently appended progress events, in a
 * row, so a final only needs to remember how many progress events came before it for drain() to restore
 * the arrival order.
 */
export class BoundedSseBuffer {
  readonly capacity: number;
  readonly #progress: Ring<ProgressEvent>;
  readonly #finals: Ring<FinalEvent>;
  /** For each buffered final (same slot as in #finals): how many progress events had been appended before it. */
  readonly #progressBeforeFinal: number[];
  #progressAppended = 0;
  #size = 0;
  /** Slot of the newest buffered event in the progress ring when that event is a progress, else -1. */
  #newestProgressSlot = -1;
  #dropped = 0;
  #refetchRequired = false;

  constructor(capacity: number) {
    this.capacity = requireInteger('capacity', capacity, 2);
    this.#progress = new Ring(capacity);
    this.#finals = new Ring(capacity);
    this.#progressBeforeFinal = new Array<number>(capacity).fill(0);
  }

  get size(): number {
    return this.#size;
  }

  /** Events lost so far: coalesced, evicted or discarded. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The stream lost or coalesced events; the consumer must refetch authoritative state. Sticky. */
  get refetchRequired(): boolean {
    return this.#refetchRequired;
  }

  push(event: SseEvent): PushOutcome {
    if (event === null || typeof event !== 'object') throw new InvalidArgumentError('event', 'must be a progress or final event');
    if (event.type !== 'progress') {
      if (event.type === 'final') return this.#pushFinal(event);
      throw new InvalidArgumentError('event.type', `must be progress or final, not ${JSON.stringify((event as { type?: unknown }).type)}`);
    }
    // The progress path is the hot one (a million pushes in the benchmark): kept inline and branch-light.
    const token = event.progressToken;
    if (typeof token !== 'string' && !Number.isSafeInteger(token))
      throw new InvalidArgumentError('event.progressToken', 'must be a string or an integer');
    if (!Number.isFinite(event.progress)) throw new InvalidArgumentError('event.progress', 'must be a finite number');
    const progress = this.#progress;
    const tail = this.#newestProgressSlot;
    if (tail >= 0) {
      if (progress.items[tail]!.progressToken === token) {
        progress.items[tail] = event;
        this.#dropped++;
        this.#refetchRequired = true;
        return 'coalesced';
      }
    }
    if (this.#size < this.capacity) {
      this.#appendProgress(event);
      return 'appended';
    }
    this.#dropped++;
    this.#refetchRequired = true;
    if (progress.size === 0) return 'discarded';
    if (progress.size === this.capacity) this.#newestProgressSlot = progress.replaceOldest(event);
    else {
      progress.dropOldest();
      this.#newestProgressSlot = progress.push(event);
    }
    this.#progressAppended++;
    return 'evicted-oldest-progress';
  }

  /** Everything buffered, oldest first, as a new array; the buffer is then empty. */
  drain(): SseEvent[] {
    const progress = this.#progress;
    const finals = this.#finals;
    const drained: SseEvent[] = [];
    // Arrival number (among progress events) of the oldest buffered progress.
    const firstProgress = this.#progressAppended - progress.size;
    let p = 0;
    for (let f = 0; f < finals.size; f++) {
      const slot = finals.slot(f);
      const before = this.#progressBeforeFinal[slot]!;
      while (p < progress.size && firstProgress + p < before) drained.push(progress.items[progress.slot(p++)]!);
      drained.push(finals.items[slot]!);
    }
    while (p < progress.size) drained.push(progress.items[progress.slot(p++)]!);
    progress.clear();
    finals.clear();
    this.#size = 0;
    this.#newestProgressSlot = -1;
    return drained;
  }

  #pushFinal(event: FinalEvent): PushOutcome {
    let outcome: PushOutcome = 'appended';
    if (this.#size === this.capacity) {
      if (this.#progress.size === 0)
        throw new BufferFullError(`the buffer holds ${this.capacity} final responses; refusing another rather than dropping one`);
      this.#progress.dropOldest();
      this.#size--;
      this.#dropped++;
      this.#refetchRequired = true;
      outcome = 'evicted-oldest-progress';
    }
    const slot = this.#finals.push(event);
    this.#progressBeforeFinal[slot] = this.#progressAppended;
    this.#size++;
    this.#newestProgressSlot = -1;
    return outcome;
  }

  #appendProgress(event: ProgressEvent): void {
    this.#newestProgressSlot = this.#progress.push(event);
    this.#progressAppended++;
    this.#size++;
  }
}
