/**
 * The same text as a string of its own. V8 keeps a slice of a string (what `dirname`, `basename` and `slice` give,
 * past a dozen characters) or a concatenation as a view of the strings it came from: a short key held for the
 * whole run then holds those alive too. A copy through JSON is a new flat string that holds nothing else.
 */
export function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
