import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is recorded cut (the bytes still pass through whole). */
export const MAX_RECORDED_LINE = 4 * 1024 * 1024;

/** `held` with `text` added, up to `MAX_RECORDED_LINE` characters; `cut` when some of `text` did not fit. */
export function appendBounded(held: string, text: string): { readonly text: string; readonly cut: boolean } {
  const room = MAX_RECORDED_LINE - held.length;
  return text.length > room ? { text: held + text.slice(0, room), cut: true } : { text: held + text, cut: false };
}

/**
 * Newline-delimited messages read from a copy of a byte stream, chunk by chunk however the chunks fall: each
 * complete line goes to `line` (without its newline or a trailing CR). Holds at most one line, cut at
 * `MAX_RECORDED_LINE` characters: a line past it is reported once, cut, with `cut` true, and the rest skipped.
 */
export class LineTap {
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';
  #cut = false;

  constructor(private readonly line: (text: string, cut: boolean) => void) {}

  write(chunk: Buffer | string): void {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    for (;;) {
      const end = text.indexOf('\n');
      if (end === -1) break;
      this.#take(text.slice(0, end));
      this.#flushLine();
      text = text.slice(end + 1);
    }
    this.#take(text);
  }

  /** The last line, when the stream ended without a newline. */
  end(): void {
    this.#take(this.#decoder.end());
    if (this.#pending !== '' || this.#cut) this.#flushLine();
  }

  #take(text: string): void {
    if (this.#cut || text === '') return;
    ({ text: this.#pending, cut: this.#cut } = appendBounded(this.#pending, text));
  }

  #flushLine(): void {
    const text = this.#pending.endsWith('\r') ? this.#pending.slice(0, -1) : this.#pending;
    const cut = this.#cut;
    this.#pending = '';
    this.#cut = false;
    if (text !== '' || cut) this.line(text, cut);
  }
}
