/**
 * Text broken into lines of at most `width` characters at spaces, never inside a word: a word longer than
 * the width stands alone on its line, whole. Runs of white space (newlines included) count as one space; a
 * no-break space (U+00A0) joins what it separates into one word.
 * With `maxLines`, text that needs more lines ends, at a word, with an ellipsis on the last line.
 */
export function wordLines(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const words = text.split(/[^\S\u00a0]+/).filter((word) => word !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  kept[kept.length - 1] = withEllipsis(kept.at(-1)!, width);
  return kept;
}

/** A line shortened at a word, if need be, so that it ends with `…` within the width (a lone word keeps whole). */
function withEllipsis(line: string, width: number): string {
  let words = line.split(' ');
  while (words.length > 1 && words.join(' ').length + 1 > width) words = words.slice(0, -1);
  return `${words.join(' ')}…`;
}
