/**
 * A count and its noun, agreed: `plural(1, 'operation')` is `1 operation`, `plural(2, 'operation')` is
 * `2 operations`. An irregular noun gives its plural: `plural(2, 'property', 'properties')`. Write `(s)` only
 * where the text cannot know the count.
 */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
