/** One line of a fixture's transcript: a wire message or a state change, at a time on the logical clock. */
export interface TranscriptEntry {
  readonly at: number;
  /** `client → server`, `server → client`, or the component whose state changed. */
  readonly lane: 'client → server' | 'server → client' | 'client' | 'server' | 'proxy' | 'ledger' | 'buffer' | 'tasks';
  readonly text: string;
}

export class Transcript {
  readonly entries: TranscriptEntry[] = [];

  wire(at: number, direction: 'client → server' | 'server → client', message: unknown): void {
    this.entries.push({ at, lane: direction, text: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  note(at: number, lane: TranscriptEntry['lane'], text: string): void {
    this.entries.push({ at, lane, text });
  }
}
