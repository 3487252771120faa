import { stringify } from 'yaml';
import { type MappingSource, type PathSegment, reach, type SourceNode } from './source-map.js';

/** Set the value at `path` (from the document root). */
export interface FixEdit {
  readonly path: readonly PathSegment[];
  readonly value: unknown;
}

/** One change to the original text: `length` characters at `at` become `text`. */
export interface Splice {
  readonly at: number;
  readonly length: number;
  readonly text: string;
  /**
   * Among changes at one offset, the lower first: lines added to an inner block mapping go before lines
   * added to the mapping around it (minus the indentation), or they would end up under the wrong key.
   */
  readonly order?: number;
}

/**
 * Applies fixes to a manifest's text as splices at the places the source map gives, so every byte outside the
 * fixed values stays as it was — comments, blank lines, key order, quoting, anchors, the padding of flow
 * collections — which re-printing a parsed document would not keep. A value that exists is replaced where it
 * is written; a missing key is added to its nearest existing mapping (a line in a block mapping, at that
 * mapping's indentation; an entry in a flow mapping or a JSON object), with missing mappings on the way
 * written as flow mappings. New values are rendered by the `yaml` package (quoted only where YAML needs it), or
 * as JSON in a JSON file. Edits that meet inside a sequence, or at a collection, are left out (`skipped`).
 */
export function applyFixes(
  text: string,
  root: SourceNode,
  edits: readonly FixEdit[],
  format: 'yaml' | 'json',
): { readonly text: string; readonly splices: readonly Splice[]; readonly skipped: readonly FixEdit[] } {
  const splices: Splice[] = [];
  const skipped: FixEdit[] = [];
  /** Missing keys grouped by the mapping they go into, so two fixes under one new key make one entry. */
  const inserts = new Map<MappingSource, Map<string, { value: unknown }>>();
  const seen = new Set<string>();
  for (const edit of edits) {
    const id = JSON.stringify(edit.path);
    if (seen.has(id)) continue;
    seen.add(id);
    const { node, depth } = reach(root, edit.path);
    if (depth === edit.path.length) {
      if (node.kind !== 'scalar') skipped.push(edit);
      else splices.push({ at: node.start, length: node.end - node.start, text: render(edit.value, format) });
      continue;
    }
    if (node.kind !== 'mapping') {
      skipped.push(edit);
      continue;
    }
    const key = String(edit.path[depth]);
    const group = inserts.get(node) ?? new Map<string, { value: unknown }>();
    inserts.set(node, group);
    const rest = edit.path.slice(depth + 1);
    const entry = group.get(key);
    if (rest.length === 0) group.set(key, { value: edit.value });
    else {
      const base = entry !== undefined && isPlainObject(entry.value) ? entry.value : {};
      group.set(key, { value: setNested(base, rest, edit.value) });
    }
  }
  for (const [mapping, group] of inserts)
    splices.push(
      insertion(
        text,
        mapping,
        [...group].map(([key, { value }]) => [key, value]),
        format,
      ),
    );
  // Apply from the end, so earlier offsets stay valid; two insertions at one place keep their order.
  const ordered = splices
    .map((splice, index) => ({ splice, index }))
    .sort((a, b) => b.splice.at - a.splice.at || (b.splice.order ?? 0) - (a.splice.order ?? 0) || b.index - a.index);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  const applied: Splice[] = [];
  for (const { splice } of ordered) {
    if (splice.at + splice.length > limit) continue; // overlaps a later change: left out
    result = result.slice(0, splice.at) + splice.text + result.slice(splice.at + splice.length);
    limit = splice.at;
    applied.push(splice);
  }
  return { text: result, splices: applied.reverse(), skipped };
}

/** The text that adds `entries` to an existing mapping. */
function insertion(text: string, mapping: MappingSource, entries: readonly [string, unknown][], format: 'yaml' | 'json'): Splice {
  const rendered = entries.map(([key, value]) => `${format === 'json' ? JSON.stringify(key) : renderKey(key)}: ${render(value, format)}`);
  const last = [...mapping.entries.values()].sort((a, b) => a.keyStart - b.keyStart).at(-1);
  const flow = text[mapping.start] === '{';
  if (flow) {
    const close = closingBracket(text, mapping.start);
    if (last === undefined) return { at: mapping.start + 1, length: close - mapping.start - 1, text: ` ${rendered.join(', ')} ` };
    // Before the space (or line break) that pads the closing brace, after the last entry.
    let at = close;
    while (at > mapping.start + 1 && /\s/.test(text[at - 1]!)) at--;
    // A JSON object laid out one entry per line gets its new entries on lines of their own.
    const lineBreak = text.slice(mapping.start, last.keyStart).includes('\n');
    const separator = lineBreak ? `,\n${' '.repeat(columnOf(text, last.keyStart))}` : ', ';
    return { at, length: 0, text: rendered.map((entry) => `${separator}${entry}`).join('') };
  }
  // A block mapping: new lines after the line its last entry ends on, at the indentation of its keys.
  const indent = last === undefined ? 0 : columnOf(text, last.keyStart);
  const end = last === undefined ? mapping.end : Math.max(endOf(text, last.value), last.keyEnd);
  const newline = text.indexOf('\n', Math.max(end - 1, 0));
  const lines = rendered.map((entry) => `${' '.repeat(indent)}${entry}\n`).join('');
  if (newline === -1) return { at: text.length, length: 0, text: `\n${lines}`, order: -indent };
  return { at: newline + 1, length: 0, text: lines, order: -indent };
}

/** The offset of the bracket that closes the flow collection opening at `open`, skipping quoted text and nested brackets. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const character = text[index]!;
    if (character === '"') {
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++;
    } else if (character === "'") {
      for (index++; index < text.length; index++) {
        if (text[index] !== "'") continue;
        if (text[index + 1] === "'") index++;
        else break;
      }
    } else if (character === '#' && /\s/.test(text[index - 1] ?? ' ')) {
      while (index < text.length && text[index] !== '\n') index++;
    } else if (character === '{' || character === '[') depth++;
    else if (character === '}' || character === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return text.length;
}

/**
 * Where a value's text really ends: a scalar's end; a flow collection's closing bracket; a block collection's
 * last value (a block node's own end may reach into the lines after it).
 */
function endOf(text: string, node: SourceNode): number {
  if (node.kind === 'scalar') return node.end;
  const opening = text[node.start];
  if (opening === '{' || opening === '[') return closingBracket(text, node.start) + 1;
  if (node.kind === 'mapping') {
    const last = [...node.entries.values()].sort((a, b) => a.keyStart - b.keyStart).at(-1);
    return last === undefined ? node.start : Math.max(endOf(text, last.value), last.keyEnd);
  }
  const item = node.items.at(-1);
  return item === undefined ? node.start : endOf(text, item);
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** A value written inline: a scalar as YAML writes it, a mapping as a flow mapping. */
function render(value: unknown, format: 'yaml' | 'json'): string {
  if (format === 'json') return JSON.stringify(value);
  if (isPlainObject(value))
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${renderKey(key)}: ${render(inner, format)}`)
      .join(', ')} }`;
  if (Array.isArray(value)) return `[${value.map((item) => render(item, format)).join(', ')}]`;
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

function renderKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function setNested(base: Record<string, unknown>, path: readonly PathSegment[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  const key = String(head);
  if (rest.length === 0) return { ...base, [key]: value };
  const inner = base[key];
  return { ...base, [key]: setNested(isPlainObject(inner) ? inner : {}, rest, value) };
}

/**
 * Where a fix of an operation's field belongs: the operation's own field when it is written there; else the
 * `defaults` field it inherits, when `defaults` holds more of the path than the operation does (fixing the
 * default fixes every operation that inherits it, and the new value joins the mapping already there); else the
 * operation (a new field of its own).
 */
export function placeOfFix(root: SourceNode, path: readonly PathSegment[]): readonly PathSegment[] {
  if (path[0] !== 'operations' || path.length < 3) return path;
  // How much of the field's own path (after operations/<i>, or after defaults) is written in each place.
  const own = reach(root, path).depth - 2;
  if (own === path.length - 2) return path;
  const inherited = ['defaults', ...path.slice(2)];
  const written = reach(root, inherited).depth;
  return written >= 1 && written - 1 > own ? inherited : path;
}
