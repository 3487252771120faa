/**
 * How long the probe itself was held up: a timer that should fire every `periodMs` and the delay with which
 * it does. A busy probe (reading a backlog of messages) or a starved one (a loaded machine) is late, and a
 * message it reads late was not necessarily sent late: the in-flight allowance grows by this much.
 */
export class LagMeter {
  #total = 0;
  #last: number;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly clock: () => number,
    private readonly periodMs = 10,
  ) {
    this.#last = clock();
    this.#timer = setInterval(() => {
      const now = clock();
      this.#total += Math.max(0, now - this.#last - periodMs);
      this.#last = now;
    }, periodMs);
    this.#timer.unref();
  }

  /** The delay accumulated so far, including the timer's current lateness, in ms. */
  total(): number {
    return this.#total + Math.max(0, this.clock() - this.#last - this.periodMs);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
