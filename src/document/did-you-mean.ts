/** The closest candidate to a misspelt word, if one is close enough to be what was meant. */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  // A word this long is no misspelling of a field name, and comparing it would cost its length times theirs.
  if (word.length > 64) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    // One word extending the other ("warning" for "warn", "timeout" for "timeouts") is as close as one edit.
    const extends_ = Math.min(lower.length, other.length) >= 3 && (lower.startsWith(other) || other.startsWith(lower));
    const distance = extends_ ? 1 : editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Allow about one edit per three characters: "timeout" → "timeouts", not "name" → "method".
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  let twoRowsUp: number[] = [];
  let rowUp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rowUp[j]! + 1, row[j - 1]! + 1, rowUp[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, twoRowsUp[j - 2]! + 1);
      row.push(distance);
    }
    twoRowsUp = rowUp;
    rowUp = row;
  }
  return rowUp[b.length]!;
}
