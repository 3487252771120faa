import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import type { SessionTranscript } from '../judges/session-transcript.js';

/** A failed case as the proxy tells it while the session goes on. */
export interface LiveFailure {
  readonly judge: string;
  readonly party: string;
  readonly message: string;
  readonly line: number;
}

/**
 * The session judged as it goes: every `intervalMs` (longer when judging takes long: at most about 5% of the time),
 * the judges run on what was seen so far (a timeout can pass with no message at all), and each failed case not told
 * yet goes to `tell`, once. The judges' failures only grow with the session — a late message never undoes one — so
 * what is told stands in the verdict at the end (a case may be told again in new words as it grows: a timeout
 * passed without a cancellation, then the cancellation came late).
 */
export class LiveVerdict {
  readonly #told = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly session: () => SessionTranscript,
    private readonly options: JudgeOptions,
    private readonly tell: (failure: LiveFailure) => void,
    private readonly intervalMs = 1000,
    /** Judging threw (a judge's bug on a session nobody foresaw): live judging stops, said once; the relay goes on. */
    private readonly failed: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.#schedule(this.intervalMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Judges the session now and tells what newly failed. */
  check(): void {
    const transcript = this.session();
    if (transcript.messages.length === 0) return;
    for (const judgement of judgeSession(transcript, this.options).judgements)
      for (const one of judgement.cases) {
        if (one.status !== 'fail') continue;
        // Told once per failure as first seen; a case that changes later (a timeout passed, then a late
        // cancellation) is told again in its new words, never dropped.
        const key = `${judgement.judge} ${one.lines.join(',')} ${one.message}`;
        if (this.#told.has(key)) continue;
        this.#told.add(key);
        this.tell({ judge: judgement.judge, party: judgement.party, message: one.message, line: one.lines[0] ?? 1 });
      }
  }

  #schedule(delay: number): void {
    this.#timer = setTimeout(() => {
      const started = performance.now();
      try {
        this.check();
      } catch (error) {
        // On a timer, a throw would end the process and every session it relays with it.
        this.failed(error);
        return;
      }
      this.#schedule(Math.max(this.intervalMs, 20 * (performance.now() - started)));
    }, delay);
    this.#timer.unref();
  }
}
