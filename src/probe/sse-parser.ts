/** One server-sent event: its data (lines joined) and id, if any; `cut` when its data was longer than the parser keeps. */
export interface SseEvent {
  readonly data: string;
  readonly id?: string;
  readonly event?: string;
  readonly cut?: boolean;
}

/**
 * An incremental text/event-stream parser (WHATWG), bounded: it never holds more than about `maxEvent` characters.
 * An event (or a single line) larger than that is counted in `oversized`, once; it is dropped, or — with
 * `deliverCut` (a recorder, which must show that something passed) — delivered with the first `maxEvent` characters
 * of its data and `cut: true`. The rest of an over-long line is skipped up to its end. Comment lines (keep-alives)
 * are counted, never delivered as events.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #size = 0;
  #cut = false;
  /** The rest of an over-long line is being skipped, up to its end. */
  #skipping = false;
  #id: string | undefined;
  #event: string | undefined;
  comments = 0;
  oversized = 0;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly maxEvent = 1024 * 1024,
    private readonly deliverCut = false,
  ) {}

  push(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#lineEnd(); end !== -1; end = this.#lineEnd()) {
      const line = this.#buffer.slice(0, end);
      const skip = this.#buffer[end] === '\r' && this.#buffer[end + 1] === '\n' ? 2 : 1;
      this.#buffer = this.#buffer.slice(end + skip);
      if (this.#skipping) this.#skipping = false;
      else this.#line(line);
    }
    // Skipping: nothing of the line is kept but a CR that may be the first half of its CRLF.
    if (this.#skipping) this.#buffer = this.#buffer.endsWith('\r') ? '\r' : '';
    else if (this.#buffer.length > this.maxEvent) {
      // One line longer than an event may be: what fits of it is kept (a data line), the rest skipped.
      const partial = this.#buffer;
      this.#buffer = '';
      this.#skipping = true;
      if (partial.startsWith('data')) this.#line(partial);
      this.#overflow();
    }
  }

  #lineEnd(): number {
    const newline = this.#buffer.indexOf('\n');
    const carriage = this.#buffer.indexOf('\r');
    if (carriage === -1) return newline;
    if (newline === -1) return carriage === this.#buffer.length - 1 ? -1 : carriage;
    return Math.min(newline, carriage);
  }

  /** The event being read is over the bound: counted once, and kept cut when asked. */
  #overflow(): void {
    if (!this.#cut) this.oversized++;
    this.#cut = true;
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#data.length > 0 && (!this.#cut || this.deliverCut))
        this.onEvent({
          data: this.#data.join('\n'),
          ...(this.#id === undefined ? {} : { id: this.#id }),
          ...(this.#event === undefined ? {} : { event: this.#event }),
          ...(this.#cut ? { cut: true } : {}),
        });
      this.#data = [];
      this.#size = 0;
      this.#cut = false;
      this.#event = undefined;
      return;
    }
    if (line.startsWith(':')) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      if (this.#cut) return;
      const separator = this.#data.length > 0 ? 1 : 0;
      const room = Math.max(this.maxEvent - this.#size - separator, 0);
      this.#data.push(value.length > room ? value.slice(0, room) : value);
      this.#size += separator + Math.min(value.length, room);
      if (value.length > room) this.#overflow();
    } else if (field === 'id') this.#id = value;
    else if (field === 'event') this.#event = value;
  }
}
