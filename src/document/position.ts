/** A place in a file. Both numbers are 1-based; the column counts UTF-16 code units. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}
