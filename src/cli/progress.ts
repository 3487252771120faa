import { displayText } from '../text/display-text.js';

/** How often the line is redrawn at most: a run of 40 000 fixtures does not write 40 000 lines to the terminal. */
const REDRAW_MS = 100;

/**
 * A one-line progress counter on a terminal — `[12/400] refund · 3.1 s`: how far, what is running now, how long
 * so far. Silent when the stream is not a terminal (pipes, files) or under CI (CI set to anything but false or 0),
 * so logs and reports hold nothing extra.
 */
export class Progress {
  readonly #active: boolean;
  readonly #started: number;
  #drawnAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly stream: Pick<NodeJS.WriteStream, 'write' | 'isTTY' | 'columns'>,
    private readonly total: number,
    env: NodeJS.ProcessEnv = process.env,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#active = stream.isTTY === true && total > 1 && !underCi(env);
    this.#started = now();
  }

  update(index: number, label: string): void {
    if (!this.#active) return;
    const at = this.now();
    if (at - this.#drawnAt < REDRAW_MS && index + 1 < this.total) return;
    this.#drawnAt = at;
    const elapsed = `${((at - this.#started) / 1000).toFixed(1)} s`;
    // A terminal that reports no width (0 columns: some pseudo-terminals) is taken as 80 columns wide.
    const width = (this.stream.columns || 80) - 1;
    const head = `[${index + 1}/${this.total}] `;
    const tail = ` · ${elapsed}`;
    // The label gives way to the counter and the time when the terminal is narrow.
    const room = Math.max(0, width - head.length - tail.length);
    const text = displayText(label);
    const shown = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
    this.stream.write(`\r${`${head}${shown}${tail}`.slice(0, width).padEnd(width)}`);
  }

  done(): void {
    if (this.#active && this.#drawnAt !== Number.NEGATIVE_INFINITY) this.stream.write(`\r${' '.repeat((this.stream.columns || 80) - 1)}\r`);
  }
}

function underCi(env: NodeJS.ProcessEnv): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
