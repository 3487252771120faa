import type { Position } from './position.js';

/** Turns 0-based text offsets into 1-based lines and columns. Built once per file, only when a finding needs it. */
export class LineIndex {
  readonly #lineStarts: number[];

  readonly #length: number;

  constructor(text: string) {
    this.#length = text.length;
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#lineStarts = starts;
  }

  /** Line and column are 1-based; the column counts UTF-16 code units, as editors and SARIF (utf16CodeUnits) do. */
  position(at: number): Position {
    // An offset outside the text (a parser pointing before an empty document) still names a real place: line 1, column 1 at least.
    const offset = Math.max(0, Math.min(Number.isFinite(at) ? at : 0, this.#length));
    const starts = this.#lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  }
}
