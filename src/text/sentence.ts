/**
 * A sentence as it is shown after another one: its first letter a capital ("… never closed. Close it …"). Only
 * a lower-case letter at the very start is raised; names in code (`x-mcprely-ignore`, `--fix`) are left as they are.
 */
export function asSentence(text: string): string {
  const first = text.charAt(0);
  return /^[a-z]$/.test(first) ? first.toUpperCase() + text.slice(1) : text;
}
