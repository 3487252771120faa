import { describeId } from '../protocol/json-rpc-id.js';
import { answersCancellation, isProgress, progressValue, type Received } from './received.js';
import { isResponse } from '../protocol/message-guards.js';

const SAMPLES = 8;

/**
 * Everything the server sent about one request, kept within bounds whatever it sends. The probe keeps the
 * flow-control rules it checks: progress is counted and checked as it arrives, the queue a check reads from
 * is bounded and drops the oldest progress when full, and a final response is never dropped.
 */
export class CallInbox {
  readonly #queue: Received[] = [];
  readonly #waiters = new Set<() => void>();
  /** The first response (result or error); later ones are counted as repeats. */
  response: Received | undefined;
  repeatedResponses = 0;
  progressCount = 0;
  readonly progressValues: unknown[] = [];
  /** Where progress did not increase: each value and the one before it, as JSON (the first few). */
  readonly notIncreasing: { readonly value: string; readonly previous: string }[] = [];
  #lastProgress: unknown;
  /** Progress that came after the response. */
  progressAfterResponse = 0;
  /** When the probe cancelled the request (probe clock). */
  cancelledAt: number | undefined;
  /** From this time on (probe clock) the request must be silent: it was cancelled, plus the in-flight allowance. */
  silentFrom: number | undefined;
  /** How long the probe itself was held up when it cancelled (see `LagMeter`). */
  #lagAtCancel = 0;
  /** The most the probe was held up after the cancellation, added to the allowance for each message it read. */
  heldUpMs = 0;
  /** Responses and progress that arrived after the cancellation but within the allowance: they crossed it on the wire. */
  crossedCancellation = 0;
  /** How many progress notifications had arrived when the request was cancelled. */
  progressAtCancel = 0;
  readonly #afterSilence: Received[] = [];
  #afterSilenceCount = 0;
  /**
   * A fence after the cancellation (stdio: a ping written after notifications/cancelled). The server read the
   * cancellation before the ping, and one pipe keeps order: what arrives before the ping's answer may have been
   * written before the server read the cancellation, so it crossed it however late it is read. Until the answer
   * comes such messages wait undecided; when the silence is read without it, they are judged by time alone.
   */
  #fence: 'none' | 'pending' | 'passed' | 'abandoned' = 'none';
  /** Messages waiting for the fence, by what time alone would make of them (counts, and the first few late ones). */
  readonly #undecided = { early: 0, late: 0, lateSamples: [] as Received[] };
  /** Called as the response is taken in, before the next message is (the fence's own inbox). */
  onResponse: ((at: number) => void) | undefined;
  /** Messages about this request that arrived on another request's response stream (Streamable HTTP). */
  readonly onOtherStreams: Received[] = [];
  /** Responses whose id matched this request's in value but not in type. */
  readonly mistypedIds: string[] = [];
  /** Progress dropped from the read queue to keep it bounded (counted, never silently lost). */
  coalesced = 0;
  /** Why nothing more will come (the stream ended, the process exited, the transport failed). */
  closed: string | undefined;
  /** A transport failure of this request: an HTTP status, a body that is not JSON, a bound exceeded. */
  failure: string | undefined;

  /** The longest wait (ms) between the request and a message for it, or between two of them: how often it shows it is alive. */
  longestGapMs = 0;
  #lastAt: number;

  /** When the last message before the response came (the probe's clock), or when the request was sent if none did. */
  get lastMessageAt(): number {
    return this.#lastAt;
  }

  constructor(
    private readonly capacity = 256,
    private readonly lag: () => number = () => 0,
    startedAt = 0,
  ) {
    this.#lastAt = startedAt;
  }

  /**
   * The request was cancelled at `at`: what arrives before `silentFrom` — later by however long the probe
   * itself was held up meanwhile, since a message read late was not necessarily sent late — crossed the
   * cancellation on the wire; anything after breaks the silence.
   */
  cancel(at: number, silentFrom: number): void {
    this.cancelledAt = at;
    this.silentFrom = silentFrom;
    this.progressAtCancel = this.progressCount;
    this.#lagAtCancel = this.lag();
  }

  /** A fence was written after the cancellation: messages from now until `fencePassed` wait undecided. */
  awaitFence(): void {
    if (this.#fence === 'none') this.#fence = 'pending';
  }

  /**
   * The fence's answer came (at `at`, probe clock): every message that came before it crossed the cancellation on the
   * wire. The server had read the cancellation by then, however late it got to it (a loaded machine, a slow POST): the
   * allowance after it counts from here, and only what held the probe up from here on is added to it.
   */
  fencePassed(at?: number): void {
    if (this.#fence !== 'pending') return;
    this.#fence = 'passed';
    this.crossedCancellation += this.#undecided.early + this.#undecided.late;
    if (at === undefined || this.cancelledAt === undefined || this.silentFrom === undefined) return;
    this.silentFrom = Math.max(this.silentFrom, at + this.silentFrom - this.cancelledAt);
    this.#lagAtCancel = this.lag();
  }

  /** The fence's answer cannot be placed in order (it came before it was watched for): what waited is judged by time. */
  abandonFence(): void {
    this.#settle();
  }

  /** What broke the silence (the first few): messages for the request after the cancellation and its allowance. */
  get afterSilence(): readonly Received[] {
    this.#settle();
    return this.#afterSilence;
  }

  get afterSilenceCount(): number {
    this.#settle();
    return this.#afterSilenceCount;
  }

  /** Read before the fence answered: the fence is given up, and what waited is judged by time as it arrived. */
  #settle(): void {
    if (this.#fence !== 'pending') return;
    this.#fence = 'abandoned';
    this.crossedCancellation += this.#undecided.early;
    this.#afterSilenceCount += this.#undecided.late;
    for (const received of this.#undecided.lateSamples) if (this.#afterSilence.length < SAMPLES) this.#afterSilence.push(received);
  }

  #breaksSilence(received: Received): void {
    this.#afterSilenceCount++;
    if (this.#afterSilence.length < SAMPLES) this.#afterSilence.push(received);
  }

  push(received: Received): void {
    const message = received.message;
    if (this.response === undefined) {
      this.longestGapMs = Math.max(this.longestGapMs, Math.round(received.at - this.#lastAt));
      this.#lastAt = received.at;
    }
    if (this.cancelledAt !== undefined && received.at >= this.cancelledAt && (isResponse(message) || isProgress(message))) {
      const heldUp = this.lag() - this.#lagAtCancel;
      this.heldUpMs = Math.max(this.heldUpMs, Math.round(heldUp));
      // Judged by content first: an answer to the cancellation was written after it, whenever it arrives.
      const answers = answersCancellation(message);
      const late = this.silentFrom !== undefined && received.at >= this.silentFrom + heldUp;
      if (!answers && this.#fence === 'pending') {
        if (!late) this.#undecided.early++;
        else if (this.#undecided.late++ < SAMPLES) this.#undecided.lateSamples.push(received);
      } else if (answers || late) this.#breaksSilence(received);
      else this.crossedCancellation++;
    }
    if (isResponse(message)) {
      // One response per request: a repeat is counted, never queued, so repeats cannot grow memory.
      if (this.response !== undefined) {
        this.repeatedResponses++;
        return;
      }
      this.response = received;
      this.onResponse?.(received.at);
    } else if (isProgress(message)) this.#progress(received);
    this.#enqueue(received);
  }

  /** A message about this request seen on the stream of another. */
  crossedStreams(received: Received): void {
    if (this.onOtherStreams.length < SAMPLES) this.onOtherStreams.push(received);
    this.push(received);
  }

  /** A response that names this request's id in another JSON type: it is not the answer. */
  mistyped(received: Received, expected: unknown): void {
    if (this.mistypedIds.length < SAMPLES)
      this.mistypedIds.push(`a response with the id ${describeId(received.message['id'])} to request ${describeId(expected)}`);
    this.#wake();
  }

  fail(reason: string): void {
    this.failure ??= reason;
    this.close(reason);
  }

  close(reason: string): void {
    this.closed ??= reason;
    this.#wake();
  }

  /**
   * Waits until a matching message arrives (returned, removed from the read queue), the request cannot get
   * one any more (closed, failed, answered with a mistyped id), or `timeoutMs` passes (undefined).
   */
  async next(matches: (message: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Received | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.#queue.findIndex((queued) => matches(queued.message));
      if (index !== -1) return this.#queue.splice(index, 1)[0];
      if (this.closed !== undefined || this.mistypedIds.length > 0) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#waiters.add(done);
      });
    }
  }

  /** Waits for the response; undefined when it did not come (see `closed`, `failure`, `mistypedIds`). */
  waitForResponse(timeoutMs: number): Promise<Received | undefined> {
    return this.response !== undefined ? Promise.resolve(this.response) : this.next(isResponse, timeoutMs);
  }

  /** Waits `ms` (or until the stream closes), for messages that must not come. */
  async watch(ms: number): Promise<void> {
    const until = Date.now() + ms;
    for (let left = ms; left > 0 && this.closed === undefined; left = until - Date.now()) await this.next(() => false, left);
  }

  /** Why the request got no answer, in one sentence, when something other than silence explains it. */
  get why(): string | undefined {
    if (this.mistypedIds.length > 0) return `the server sent ${this.mistypedIds[0]}: ids must match in type and value`;
    return this.failure ?? this.closed;
  }

  #progress(received: Received): void {
    const value = progressValue(received.message);
    this.progressCount++;
    if (this.progressValues.length < 64) this.progressValues.push(value);
    if (this.response !== undefined) this.progressAfterResponse++;
    if (
      this.#lastProgress !== undefined &&
      !(typeof value === 'number' && typeof this.#lastProgress === 'number' && value > this.#lastProgress)
    ) {
      if (this.notIncreasing.length < SAMPLES)
        this.notIncreasing.push({ value: String(JSON.stringify(value)), previous: String(JSON.stringify(this.#lastProgress)) });
    }
    this.#lastProgress = value;
  }

  #enqueue(received: Received): void {
    if (this.#queue.length >= this.capacity) {
      const oldest = this.#queue.findIndex((queued) => isProgress(queued.message));
      if (oldest !== -1 || !isResponse(received.message)) {
        this.#queue.splice(oldest === -1 ? 0 : oldest, 1);
        this.coalesced++;
      }
    }
    this.#queue.push(received);
    this.#wake();
  }

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }
}
