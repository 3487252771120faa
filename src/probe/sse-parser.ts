/** One server-sent event: its data (lines joined) and id, if any. */
export interface SseEvent {
  readonly data: string;
  readonly id?: string;
  readonly event?: string;
}

/**
 * An incremental text/event-stream parser (WHATWG), bounded: an event larger than `maxEvent` characters is
 * dropped and counted. Comment lines (keep-alives) are counted, never delivered as events.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #size = 0;
  #id: string | undefined;
  #event: string | undefined;
  comments = 0;
  oversized = 0;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly maxEvent = 1024 * 1024,
  ) {}

  push(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#lineEnd(); end !== -1; end = this.#lineEnd()) {
      const line = this.#buffer.slice(0, end);
      const skip = this.#buffer[end] === '\r' && this.#buffer[end + 1] === '\n' ? 2 : 1;
      this.#buffer = this.#buffer.slice(end + skip);
      this.#line(line);
    }
    if (this.#buffer.length > this.maxEvent) {
      this.oversized++;
      this.#buffer = '';
    }
  }

  #lineEnd(): number {
    const newline = this.#buffer.indexOf('\n');
    const carriage = this.#buffer.indexOf('\r');
    if (carriage === -1) return newline;
    if (newline === -1) return carriage === this.#buffer.length - 1 ? -1 : carriage;
    return Math.min(newline, carriage);
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#data.length > 0 && this.#size <= this.maxEvent)
        this.onEvent({
          data: this.#data.join('\n'),
          ...(this.#id === undefined ? {} : { id: this.#id }),
          ...(this.#event === undefined ? {} : { event: this.#event }),
        });
      else if (this.#size > this.maxEvent) this.oversized++;
      this.#data = [];
      this.#size = 0;
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
      this.#size += value.length;
      if (this.#size <= this.maxEvent) this.#data.push(value);
    } else if (field === 'id') this.#id = value;
    else if (field === 'event') this.#event = value;
  }
}
