/** What a piece of live news is about, and what it says there: told when either is new since it was last told. */
export interface NewsKey {
  readonly about: string;
  readonly says: string;
}

export interface LiveTellingOptions<News> {
  /** One judging pass over what was seen so far: the news it finds (told or not yet). */
  readonly judge: () => Iterable<News>;
  readonly key: (news: News) => NewsKey;
  readonly tell: (news: News) => void;
  /** Judging threw (a judge's bug on a session nobody foresaw): telling stops, said once; whatever it watched goes on. */
  readonly failed: (error: unknown) => void;
  readonly intervalMs: number;
}

/**
 * Judging as it goes, shared by the proxy (each judge's failure) and probe-client (each scenario decided): every
 * `intervalMs` (longer when judging takes long: at most about 5% of the time, so that sessions of 10⁴ messages never
 * stall what they watch), a judging pass runs and each piece of news not told yet, or that says something new about
 * what it is about, is told, once. The timer never keeps the process alive.
 */
export class LiveTelling<News> {
  readonly #told = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LiveTellingOptions<News>) {}

  start(): void {
    this.#schedule(this.options.intervalMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Judges now and tells what is new. */
  check(): void {
    for (const news of this.options.judge()) {
      const { about, says } = this.options.key(news);
      if (this.#told.get(about) === says) continue;
      this.#told.set(about, says);
      this.options.tell(news);
    }
  }

  #schedule(delay: number): void {
    this.#timer = setTimeout(() => {
      const started = performance.now();
      try {
        this.check();
      } catch (error) {
        // On a timer, a throw would end the process and every session it watches with it.
        this.options.failed(error);
        return;
      }
      this.#schedule(Math.max(this.options.intervalMs, 20 * (performance.now() - started)));
    }, delay);
    this.#timer.unref();
  }
}
