import { idKey } from '../protocol/json-rpc-id.js';
import { asRecord } from '../protocol/message-guards.js';
import { MCPRELY_META_KEYS } from '../protocol/meta-keys.js';
import { METHODS } from '../protocol/methods.js';
import type { JsonObject } from './json-rpc-replies.js';

/** Where a server's messages go: an HTTP response's SSE stream, or stdout. */
export interface BackpressuredOutput {
  /** False when the output's own buffer is past its high-water mark: wait for 'drain'. */
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

interface Held {
  readonly chunk: string;
  /** The progress token of a progress notification (replaceable); undefined for a message that must arrive. */
  readonly token?: string;
}

/**
 * The bounded queue between a server's calls and a slow reader. While the output is not backed up every message is
 * written at once. Once a write says it is (`write` returned false), messages wait for 'drain': a progress
 * notification replaces the one of the same token still waiting (progress is replaceable: the later supersedes the
 * earlier, and nothing is appended), while every other message (a call's answer, any reply) waits in order and is
 * never dropped. So what waits is at most one progress per call in flight and the answers, and the output's own
 * buffer holds at most what was written before it said to stop. Each progress replaced is counted against its token,
 * so the call's answer can say its stream lost progress (the answer is the authoritative state).
 */
export class CoalescingWriter {
  readonly #held: Held[] = [];
  readonly #lost = new Map<string, number>();
  #waiting = false;
  #onFlushed: (() => void) | undefined;

  /** `backedUp`: told true when messages start to wait, false once they are all written (stdio stops reading meanwhile). */
  constructor(
    private readonly output: BackpressuredOutput,
    private readonly backedUp: (waiting: boolean) => void = () => undefined,
  ) {}

  /** A progress notification of `token`: written, or waiting in the place of the one of the same token that waited. */
  progress(progressToken: string | number, chunk: string): void {
    const token = idKey(progressToken);
    if (this.#waiting) {
      const at = this.#held.findIndex((held) => held.token === token);
      if (at >= 0) {
        this.#held[at] = { chunk, token };
        this.#lost.set(token, (this.#lost.get(token) ?? 0) + 1);
        return;
      }
    }
    this.#send({ chunk, token });
  }

  /** A message that must arrive, after everything sent before it. */
  message(chunk: string): void {
    this.#send({ chunk });
  }

  /** How many progress notifications of `token` were replaced before they were written. */
  lostOf(progressToken: string | number | undefined): number {
    return progressToken === undefined ? 0 : (this.#lost.get(idKey(progressToken)) ?? 0);
  }

  /** Forgets a token's count (its call has ended: a later call may use the token again). */
  forget(progressToken: string | number | undefined): void {
    if (progressToken !== undefined) this.#lost.delete(idKey(progressToken));
  }

  /** Messages waiting for the output to drain. */
  get held(): number {
    return this.#held.length;
  }

  /** Calls `then` once nothing waits (at once when nothing does): an HTTP stream ends only after its answer is written. */
  whenFlushed(then: () => void): void {
    if (this.#held.length === 0) then();
    else this.#onFlushed = then;
  }

  #send(held: Held): void {
    if (this.#waiting) {
      this.#held.push(held);
      return;
    }
    if (!this.output.write(held.chunk)) this.#wait();
  }

  #wait(): void {
    if (!this.#waiting) this.backedUp(true);
    this.#waiting = true;
    this.output.once('drain', () => this.#drain());
  }

  #drain(): void {
    while (this.#held.length > 0) {
      const next = this.#held.shift() as Held;
      if (!this.output.write(next.chunk)) {
        this.output.once('drain', () => this.#drain());
        return;
      }
    }
    this.#waiting = false;
    this.backedUp(false);
    const then = this.#onFlushed;
    this.#onFlushed = undefined;
    then?.();
  }
}

/** A call's answer marked with the progress its stream lost (`_meta` of the result), when it lost any; else as it was. */
export function markedWithLoss(answer: JsonObject, lost: number): JsonObject {
  const result = asRecord(answer['result']);
  if (lost === 0 || result === undefined) return answer;
  return { ...answer, result: { ...result, _meta: { ...(asRecord(result['_meta']) ?? {}), [MCPRELY_META_KEYS.progressLost]: lost } } };
}

/** The progress token of a progress notification; undefined for any other message. */
export function progressNotificationToken(message: JsonObject): string | number | undefined {
  if (message['method'] !== METHODS.progress) return undefined;
  const token = asRecord(message['params'])?.['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
