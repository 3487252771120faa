/** A JSON-RPC message received from the server, with when it arrived (probe clock, ms). */
export interface Received {
  readonly at: number;
  readonly message: Record<string, unknown>;
}

/**
 * Messages from a server, for the checks to wait on. Bounded: beyond `limit` queued messages the server is
 * flooding and the stream stops accepting (and says so), so memory stays bounded whatever the server does.
 */
export class MessageStream {
  readonly #queue: Received[] = [];
  readonly #waiters = new Set<() => void>();
  #garbage: string[] = [];
  #garbageCount = 0;
  flooded = false;
  closed: string | undefined;

  constructor(readonly limit = 5000) {}

  get garbage(): { count: number; samples: readonly string[] } {
    return { count: this.#garbageCount, samples: this.#garbage };
  }

  push(message: Received): void {
    if (this.#queue.length >= this.limit) {
      this.flooded = true;
      return;
    }
    this.#queue.push(message);
    this.#wake();
  }

  pushGarbage(text: string): void {
    this.#garbageCount++;
    if (this.#garbage.length < 3) this.#garbage.push(text.length > 120 ? `${text.slice(0, 120)}…` : text);
    this.#wake();
  }

  close(reason: string): void {
    this.closed ??= reason;
    this.#wake();
  }

  /** Removes and returns every queued message that matches. */
  take(matches: (message: Record<string, unknown>) => boolean): Received[] {
    const taken: Received[] = [];
    for (let i = 0; i < this.#queue.length; ) {
      if (matches(this.#queue[i]!.message)) taken.push(...this.#queue.splice(i, 1));
      else i++;
    }
    return taken;
  }

  /** Waits until a matching message arrives (returned, removed), the stream closes, or `timeoutMs` passes (undefined). */
  async next(matches: (message: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Received | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.#queue.findIndex((queued) => matches(queued.message));
      if (index !== -1) return this.#queue.splice(index, 1)[0];
      if (this.closed !== undefined) return undefined;
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

  #wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }
}
