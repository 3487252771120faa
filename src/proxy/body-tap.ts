import { StringDecoder } from 'node:string_decoder';
import { appendBounded } from './line-tap.js';

/**
 * How much body text the relay's taps may hold at once, all bodies together (characters): each holds up to
 * `MAX_RECORDED_LINE` (4 Mi), and without a shared bound a hundred large POSTs at once held 4 MiB each (and their
 * copies as they were recorded). A body that finds no room left is recorded cut where it stood; its bytes pass whole.
 */
export const MAX_HELD_BODY_TEXT = 64 * 1024 * 1024;

/** The room the body taps of one relay share: taken as a body is read, given back when it has been recorded. */
export class TapBudget {
  constructor(public available: number = MAX_HELD_BODY_TEXT) {}
}

/**
 * One HTTP body read from a copy of its bytes, chunk by chunk: the whole text at the end (a JSON-RPC message or
 * batch, however it is laid out), held up to `MAX_RECORDED_LINE` characters (and what `budget` has left) and
 * reported `cut` past it.
 */
export class BodyTap {
  readonly #decoder = new StringDecoder('utf8');
  #text = '';
  #cut = false;
  #released = false;

  constructor(private readonly budget: TapBudget = new TapBudget()) {}

  write(chunk: Buffer): void {
    this.#take(this.#decoder.write(chunk));
  }

  /** The body as text, and whether it was longer than a recording keeps; its room goes back to the budget. */
  end(): { readonly text: string; readonly cut: boolean } {
    this.#take(this.#decoder.end());
    this.release();
    return { text: this.#text, cut: this.#cut };
  }

  /** Gives the room back (the body ended, or its exchange was cut before it did). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.available += this.#text.length;
  }

  #take(text: string): void {
    if (this.#cut || this.#released || text === '') return;
    const room = Math.max(0, this.budget.available);
    const held = this.#text.length;
    ({ text: this.#text, cut: this.#cut } = appendBounded(this.#text, text.length > room ? text.slice(0, room) : text));
    if (text.length > room) this.#cut = true;
    this.budget.available -= this.#text.length - held;
  }
}
