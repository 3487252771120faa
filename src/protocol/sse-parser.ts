/** One server-sent event: its data (lines joined) and id, if any; `cut` when its data was longer than the parser keeps. */
export interface SseEvent {
  readonly data: string;
  readonly id?: string;
  readonly event?: string;
  readonly cut?: boolean;
}

/**
 * An incremental text/event-stream parser (WHATWG), bounded: it never holds more than about `maxEvent` characters.
 * An event whose data (lines joined) is larger than that, or a single line longer than it, is counted in `oversized`
 * once per event. Its data is dropped — or, with `deliverCut` (a recorder, which must show that something passed),
 * delivered with its first `maxEvent` characters and `cut: true`; the rest of an over-long line is skipped to its
 * end (an over-long comment, id or event line is skipped and counted, and leaves the event's data whole). Comment
 * lines (keep-alives) are counted, never delivered as events.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #size = 0;
  /** The event's data went past the bound. */
  #cut = false;
  /** This event was counted in `oversized` already. */
  #counted = false;
  /** The rest of an over-long line is being skipped, up to its end. */
  #skipping = false;
  /** An over-long line ended with a CR at a chunk's end: an LF that comes next is its CRLF's second half. */
  #afterCr = false;
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
    if (this.#afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    if (chunk !== '') this.#afterCr = false;
    this.#buffer += chunk;
    for (let end = this.#lineEnd(); end !== -1; end = this.#lineEnd()) {
      const line = this.#buffer.slice(0, end);
      const skip = this.#buffer[end] === '\r' && this.#buffer[end + 1] === '\n' ? 2 : 1;
      this.#buffer = this.#buffer.slice(end + skip);
      if (this.#skipping) this.#skipping = false;
      else this.#line(line);
    }
    if (this.#skipping) {
      // Nothing of the skipped line is kept but a CR that may end it (its LF may come in the next chunk).
      if (this.#buffer.endsWith('\r')) this.#endSkippedLine();
      this.#buffer = '';
    } else if (this.#buffer.length > this.maxEvent) this.#overlong();
  }

  /**
   * The stream ended: a CR at its very end ends its line (it could not be known before whether an LF followed), so
   * an event closed by a CR-only blank line is delivered. An event without its blank line is dropped, as the standard says.
   */
  end(): void {
    if (this.#buffer.endsWith('\r')) this.push('\n');
  }

  /** A line longer than the bound, not ended yet: what fits of a data line is kept, the rest skipped to its end. */
  #overlong(): void {
    const endsWithCr = this.#buffer.endsWith('\r');
    const partial = endsWithCr ? this.#buffer.slice(0, -1) : this.#buffer;
    this.#buffer = '';
    this.#count();
    if (partial.startsWith('data')) this.#line(partial);
    if (endsWithCr) this.#afterCr = true;
    else this.#skipping = true;
  }

  /** A skipped line ended with the CR at the buffer's end. */
  #endSkippedLine(): void {
    this.#skipping = false;
    this.#afterCr = true;
  }

  #lineEnd(): number {
    const newline = this.#buffer.indexOf('\n');
    const carriage = this.#buffer.indexOf('\r');
    if (carriage === -1) return newline;
    if (newline === -1) return carriage === this.#buffer.length - 1 ? -1 : carriage;
    return Math.min(newline, carriage);
  }

  #count(): void {
    if (!this.#counted) this.oversized++;
    this.#counted = true;
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
      this.#counted = false;
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
      // Each line after the first adds its separator: empty data lines count too.
      const separator = this.#data.length > 0 ? 1 : 0;
      const room = Math.max(this.maxEvent - this.#size - separator, 0);
      const need = separator + value.length;
      if (need > this.maxEvent - this.#size) {
        if (room > 0 || this.#data.length === 0) this.#data.push(value.slice(0, room));
        this.#size = this.maxEvent;
        this.#cut = true;
        this.#count();
        return;
      }
      this.#data.push(value);
      this.#size += need;
    } else if (field === 'id') this.#id = value;
    else if (field === 'event') this.#event = value;
  }
}
