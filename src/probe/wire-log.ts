/** One thing the probe saw or did, `t` milliseconds after the probe started. */
export interface WireEntry {
  readonly t: number;
  /** → sent by the probe, ← received from the server, · an observation of the probe. */
  readonly direction: '→' | '←' | '·';
  readonly text: string;
}

/** A bounded transcript: keeps the first `limit` entries and counts the rest, so a flood cannot exhaust memory. */
export class WireLog {
  readonly entries: WireEntry[] = [];
  dropped = 0;

  constructor(
    private readonly clock: () => number,
    private readonly limit = 400,
    private readonly maxText = 600,
  ) {}

  add(direction: WireEntry['direction'], text: string): void {
    if (this.entries.length >= this.limit) {
      this.dropped++;
      return;
    }
    this.entries.push({
      t: Math.round(this.clock()),
      direction,
      text: text.length > this.maxText ? `${text.slice(0, this.maxText)}… (${text.length} characters)` : text,
    });
  }

  sent(message: unknown): void {
    this.add('→', typeof message === 'string' ? message : JSON.stringify(message));
  }

  received(message: unknown): void {
    this.add('←', typeof message === 'string' ? message : JSON.stringify(message));
  }

  note(text: string): void {
    this.add('·', text);
  }
}
