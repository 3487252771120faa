import { displayText } from '../text/display-text.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text from a manifest, a server or a transcript as HTML (or SVG) text or attribute content: the characters
 * markup would read escaped, and the ones that could move or reverse what follows (controls, bidi overrides)
 * written as visible escapes, as in every human format.
 */
export function html(text: string | number): string {
  return displayText(String(text)).replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/** A fragment id made of the name: letters, digits, - and _ kept, anything else as _xx (its code), so two names never share one. */
export function fragmentId(prefix: string, name: string): string {
  let id = `${prefix}-`;
  for (const character of name) id += /^[A-Za-z0-9-]$/.test(character) ? character : `_${character.codePointAt(0)!.toString(16)}_`;
  return id;
}
