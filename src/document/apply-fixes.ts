import { stringify } from 'yaml';
import type { FixChange } from './fix-change.js';
import { type MappingSource, type PathSegment, reach, type SequenceSource, type SourceNode } from './source-map.js';

/** One change at `path` (from the document root): set a value, remove the key, or add an item to a list. */
export interface FixEdit {
  readonly path: readonly PathSegment[];
  readonly change: FixChange;
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
 * written as flow mappings. A removed key takes its lines (or its flow entry and one comma) with it, and the
 * mapping around it when nothing else is left there; an added list item goes after the list's last item (a
 * line at its dashes' indentation, or an entry in a flow list), or makes the list when it is missing, and is
 * not added twice. New values are rendered by the `yaml` package (quoted only where YAML needs it), or as JSON
 * in a JSON file. Edits that meet inside a sequence, or set a collection, are left out (`skipped`).
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
    const change = edit.change;
    if ('remove' in change) {
      if (depth === edit.path.length) {
        const removal = removeEntry(text, root, edit.path);
        if (removal === undefined) skipped.push(edit);
        else splices.push(removal);
      }
      continue;
    }
    if (depth === edit.path.length) {
      if ('add' in change) {
        if (node.kind !== 'sequence') skipped.push(edit);
        else if (!holds(text, node, change.add, format)) splices.push(appendItem(text, node, change.add, format));
      } else if (node.kind !== 'scalar') skipped.push(edit);
      else splices.push({ at: node.start, length: node.end - node.start, text: render(change.set, format) });
      continue;
    }
    if (node.kind !== 'mapping') {
      skipped.push(edit);
      continue;
    }
    const value = 'add' in change ? [change.add] : change.set;
    const key = String(edit.path[depth]);
    const group = inserts.get(node) ?? new Map<string, { value: unknown }>();
    inserts.set(node, group);
    const rest = edit.path.slice(depth + 1);
    const entry = group.get(key);
    if (rest.length === 0) group.set(key, { value });
    else {
      const base = entry !== undefined && isPlainObject(entry.value) ? entry.value : {};
      group.set(key, { value: setNested(base, rest, value) });
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

/**
 * The text change that removes the entry at `path`: in a block mapping its lines (with the comment that ends
 * its last line), in a flow mapping or JSON object the entry and one comma. When it is the only entry, the
 * mapping around it goes too (a mapping with nothing in it is not what the fix means), up to the root or a
 * sequence item, where an empty mapping stays as `{}`.
 */
function removeEntry(text: string, root: SourceNode, path: readonly PathSegment[]): Splice | undefined {
  const parent = reach(root, path.slice(0, -1)).node;
  if (parent.kind !== 'mapping') return undefined;
  const entry = parent.entries.get(String(path.at(-1)));
  if (entry === undefined) return undefined;
  const entries = [...parent.entries.values()].sort((a, b) => a.keyStart - b.keyStart);
  const position = entries.indexOf(entry);
  const flow = text[parent.start] === '{';
  if (entries.length === 1) {
    if (path.length >= 2 && typeof path.at(-2) === 'string') {
      const outer = removeEntry(text, root, path.slice(0, -1));
      if (outer !== undefined) return outer;
    }
    if (flow) return { at: parent.start + 1, length: closingBracket(text, parent.start) - parent.start - 1, text: '' };
    return { at: entry.keyStart, length: endOf(text, entry.value) - entry.keyStart, text: '{}' };
  }
  if (flow) {
    const next = entries[position + 1];
    if (next !== undefined) return { at: entry.keyStart, length: next.keyStart - entry.keyStart, text: '' };
    const previous = entries[position - 1]!;
    const from = endOf(text, previous.value);
    return { at: from, length: endOf(text, entry.value) - from, text: '' };
  }
  const lineStart = text.lastIndexOf('\n', entry.keyStart - 1) + 1;
  const next = entries[position + 1];
  // The first key of a sequence item (`- key: …`): the next key moves up behind the dash.
  if (text.slice(lineStart, entry.keyStart).trim() !== '') {
    if (next === undefined) return { at: entry.keyStart, length: endOf(text, entry.value) - entry.keyStart, text: '{}' };
    return { at: entry.keyStart, length: next.keyStart - entry.keyStart, text: '' };
  }
  const newline = text.indexOf('\n', Math.max(endOf(text, entry.value) - 1, entry.keyStart));
  const lineEnd = newline === -1 ? text.length : newline + 1;
  return { at: lineStart, length: lineEnd - lineStart, text: '' };
}

/** The text change that adds `item` after a sequence's last item. */
function appendItem(text: string, sequence: SequenceSource, item: unknown, format: 'yaml' | 'json'): Splice {
  const rendered = render(item, format);
  const last = sequence.items.at(-1);
  if (text[sequence.start] === '[') {
    const close = closingBracket(text, sequence.start);
    if (last === undefined) return { at: sequence.start + 1, length: close - sequence.start - 1, text: rendered };
    const end = endOf(text, last);
    const lineBreak = text.slice(sequence.start, last.start).includes('\n');
    const separator = lineBreak ? `,\n${' '.repeat(columnOf(text, last.start))}` : ', ';
    return { at: end, length: 0, text: `${separator}${rendered}` };
  }
  // A block sequence: a new `- item` line after the last item's last line, at the dashes' indentation.
  const first = sequence.items[0]!;
  const dash = text.lastIndexOf('-', first.start - 1);
  const indent = columnOf(text, dash);
  const newline = text.indexOf('\n', Math.max(endOf(text, last!) - 1, 0));
  const line = `${' '.repeat(indent)}- ${rendered}\n`;
  // Before lines added at the same place to the mapping that holds the list (whose keys may share the dashes' column).
  const order = -indent - 0.5;
  if (newline === -1) return { at: text.length, length: 0, text: `\n${line}`, order };
  return { at: newline + 1, length: 0, text: line, order };
}

/** Whether a sequence already holds a scalar item written as `item` would be (so an add is not made twice). */
function holds(text: string, sequence: SequenceSource, item: unknown, format: 'yaml' | 'json'): boolean {
  return sequence.items.some(
    (existing) => existing.kind === 'scalar' && sameScalar(text.slice(existing.start, existing.end), item, format),
  );
}

function sameScalar(written: string, item: unknown, format: 'yaml' | 'json'): boolean {
  if (written === render(item, format)) return true;
  const unquoted = /^(["'])(.*)\1$/s.exec(written);
  return unquoted !== null && typeof item === 'string' && unquoted[2] === item;
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
