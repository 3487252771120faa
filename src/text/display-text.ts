/**
 * Text from a manifest, a file name or a server is data: shown in a terminal, a Markdown file or a CI log it
 * must not move the cursor, colour the screen, start a line of its own or reverse what follows. Every
 * character that could — C0 and C1 controls, DEL, bidirectional embeddings, overrides and isolates, line and
 * paragraph separators, the byte order mark — is written as a visible escape (`\n`, `\u001b`, `\u202e`).
 * JSON and SARIF escape such text themselves and keep it exact; human formats use this.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being escaped.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function displayText(text: string): string {
  return text.replace(UNSAFE, (character) => NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether the text holds anything `displayText` would escape. */
export function hasUnsafeCharacters(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/**
 * Text for one Markdown table cell or inline run: escaped as for display, and the characters Markdown would
 * read as structure — a pipe ending the cell, angle brackets opening HTML, backticks — written literally.
 */
export function markdownText(text: string): string {
  return displayText(text).replace(/[|<>`]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** At most `limit` characters of untrusted text, saying how much was left out. */
export function truncated(text: string, limit = 200): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}
