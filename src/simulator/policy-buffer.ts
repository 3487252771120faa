import type { FixtureParameters } from '../fixtures/fixture-types.js';
import { BoundedSseBuffer, type SseEvent } from '../reference/bounded-sse-buffer.js';
import { BufferFullError } from '../reference/errors.js';
import type { Transcript } from './transcript.js';
import { simulatedCapacity } from '../fixtures/limits.js';

/**
 * The stream buffer the operation's policy describes. A policy that matches the lesson (a capacity of at
 * least 2, coalesce then drop the oldest progress, finals preserved) runs on the reference BoundedSseBuffer;
 * any other is simulated as written — unbounded, dropping the newest, blocking the producer, or evicting
 * whatever is oldest, finals included — so the slow-consumer fixture can show what it does.
 */
export class PolicyBuffer {
  readonly #reference: BoundedSseBuffer | undefined;
  readonly #queue: SseEvent[] = [];
  #blocked = false;
  #losses = 0;
  maxSize = 0;
  readonly pushedFinals: string[] = [];
  readonly deliveredFinals: string[] = [];
  /** The newest progress event pushed, and the newest progress of each token the consumer received. */
  #latestPushed: { token: string; value: number } | undefined;
  readonly #latestDelivered = new Map<string, number>();

  /**
   * The token of the newest progress event when that event never reached the consumer (a buffer that drops the
   * newest keeps stale progress); undefined when it did. Older progress of other tokens may go to make room.
   */
  latestLost(): string | undefined {
    const latest = this.#latestPushed;
    return latest === undefined || this.#latestDelivered.get(latest.token) === latest.value ? undefined : latest.token;
  }

  constructor(
    private readonly parameters: FixtureParameters,
    private readonly transcript: Transcript,
  ) {
    const { overflow, preserveFinal } = parameters;
    const bufferCapacity = this.#capacity;
    const lessonPolicy = bufferCapacity !== null && bufferCapacity >= 2 && overflow === 'coalesce-then-drop-oldest' && preserveFinal;
    this.#reference = lessonPolicy ? new BoundedSseBuffer(bufferCapacity) : undefined;
  }

  /** The capacity simulated: the declared one, bounded (a larger buffer fills the same way, only later). */
  get #capacity(): number | null {
    return simulatedCapacity(this.parameters.bufferCapacity);
  }

  describe(): string {
    const { overflow, preserveFinal } = this.parameters;
    const declared = this.parameters.bufferCapacity;
    const capacity = declared === this.#capacity ? `${declared}` : `${declared} (simulated as ${this.#capacity})`;
    if (this.#reference !== undefined)
      return `reference BoundedSseBuffer, capacity ${capacity}: coalesce, then evict the oldest progress; finals never dropped`;
    return (
      `the policy's queue: capacity ${declared === null ? 'none (unbounded)' : capacity}, overflow ${overflow ?? 'not declared'}, ` +
      `finals ${preserveFinal ? 'preserved' : 'not protected'}`
    );
  }

  get losses(): number {
    return this.#reference?.dropped ?? this.#losses;
  }

  /** The stream was marked for a refetch: the buffer noticed a loss and the policy acts on it. */
  get refetchMarked(): boolean {
    const noticed = this.#reference?.refetchRequired ?? this.#losses > 0;
    return noticed && this.parameters.refetchOnDrop;
  }

  push(at: number, event: SseEvent): void {
    if (event.type === 'final') this.pushedFinals.push(String(event.requestId));
    else this.#latestPushed = { token: String(event.progressToken), value: event.progress };
    if (this.#reference !== undefined) {
      try {
        const outcome = this.#reference.push(event);
        if (outcome !== 'appended' || event.type === 'final')
          this.transcript.note(at, 'buffer', `${describeEvent(event)}: ${outcome}, ${this.#reference.size} buffered`);
      } catch (error) {
        if (!(error instanceof BufferFullError)) throw error;
        this.transcript.note(at, 'buffer', `${describeEvent(event)}: refused (${error.message})`);
      }
      this.maxSize = Math.max(this.maxSize, this.#reference.size);
      return;
    }
    this.#simulate(at, event);
    this.maxSize = Math.max(this.maxSize, this.#queue.length);
  }

  drain(at: number): SseEvent[] {
    const events = this.#reference?.drain() ?? this.#queue.splice(0);
    for (const event of events)
      if (event.type === 'final') this.deliveredFinals.push(String(event.requestId));
      else this.#latestDelivered.set(String(event.progressToken), event.progress);
    this.transcript.note(
      at,
      'buffer',
      `consumer drained ${events.length} events (${events.filter((event) => event.type === 'final').length} final); ` +
        `losses so far ${this.losses}; refetch ${this.refetchMarked ? 'marked' : 'not marked'}`,
    );
    return events;
  }

  #simulate(at: number, event: SseEvent): void {
    const { overflow, preserveFinal } = this.parameters;
    const bufferCapacity = this.#capacity;
    const queue = this.#queue;
    if (this.#blocked) return;
    const newest = queue.at(-1);
    if (
      event.type === 'progress' &&
      overflow === 'coalesce-then-drop-oldest' &&
      newest?.type === 'progress' &&
      newest.progressToken === event.progressToken
    ) {
      queue[queue.length - 1] = event;
      this.#losses++;
      return;
    }
    if (bufferCapacity === null || queue.length < bufferCapacity) {
      queue.push(event);
      if (bufferCapacity === null && queue.length % 64 === 0)
        this.transcript.note(at, 'buffer', `no bound: ${queue.length} events queued for a consumer that reads nothing`);
      return;
    }
    // A bounded queue with no declared overflow policy has no way to make room (fixture-parameters' rule for an
    // unset mechanism): its producer waits for the consumer, as with overflow: block.
    if (overflow === 'block' || overflow === null) {
      this.#blocked = true;
      this.transcript.note(
        at,
        'buffer',
        `full at ${bufferCapacity}${overflow === null ? ' with no overflow policy declared' : ''}: the producer blocks, ` +
          'and everything after (the final response included) waits behind the slow consumer',
      );
      return;
    }
    if (overflow === 'drop-newest' && event.type === 'progress') {
      this.#losses++;
      return;
    }
    const victim = preserveFinal ? queue.findIndex((queued) => queued.type === 'progress') : 0;
    if (victim === -1) {
      this.transcript.note(at, 'buffer', `${describeEvent(event)}: refused (only finals buffered)`);
      return;
    }
    const [dropped] = queue.splice(victim, 1);
    this.#losses++;
    if (dropped!.type === 'final')
      this.transcript.note(at, 'buffer', `evicted ${describeEvent(dropped!)} to make room: a final response is lost`);
    queue.push(event);
  }
}

function describeEvent(event: SseEvent): string {
  return event.type === 'final'
    ? `final response of ${String(event.requestId)}`
    : `progress ${event.progress} of ${String(event.progressToken)}`;
}
