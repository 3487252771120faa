/**
 * Where each key and value of a manifest sits in its text.
 *
 * Offsets are 0-based indices into the decoded text (UTF-16 code units), end-exclusive.
 * They become 1-based lines and columns only when a finding is made (see line-index.ts).
 */
export type SourceNode = ScalarSource | MappingSource | SequenceSource;

/** A document read: its plain data (a key such as __proto__ is an ordinary own property, see own-property.ts) and where each part stands. */
export interface ParsedDocument {
  readonly value: unknown;
  readonly source: SourceNode;
}

export interface ScalarSource {
  readonly kind: 'scalar';
  readonly start: number;
  readonly end: number;
}

export interface MappingSource {
  readonly kind: 'mapping';
  readonly start: number;
  readonly end: number;
  /** Keyed by the key's string value. A node reached through a YAML alias is shared, so key spans live here, not on the node. */
  readonly entries: Map<string, SourceEntry>;
}

export interface SequenceSource {
  readonly kind: 'sequence';
  readonly start: number;
  readonly end: number;
  readonly items: SourceNode[];
}

export interface SourceEntry {
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: SourceNode;
}

export type PathSegment = string | number;

/** The span a finding about `path` should point at. */
export interface Located {
  readonly start: number;
  readonly end: number;
  /** True when the path exists; false when the span is that of its nearest existing ancestor. */
  readonly exact: boolean;
  /** How many segments of the path were found (the whole path when exact). */
  readonly depth: number;
}

/**
 * Walks a path as far as it exists: the deepest node reached, the entry that named it (absent for the root
 * and for sequence items), and how many segments were found.
 */
export function reach(root: SourceNode, path: readonly PathSegment[]): { node: SourceNode; entry: SourceEntry | undefined; depth: number } {
  let node: SourceNode = root;
  let entry: SourceEntry | undefined;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    let next: SourceNode | undefined;
    let nextEntry: SourceEntry | undefined;
    if (node.kind === 'mapping') {
      nextEntry = node.entries.get(String(segment));
      next = nextEntry?.value;
    } else if (node.kind === 'sequence' && /^\d+$/.test(String(segment))) {
      next = node.items[Number(segment)];
    }
    if (next === undefined) return { node, entry, depth: i };
    node = next;
    entry = nextEntry;
  }
  return { node, entry, depth: path.length };
}

/**
 * Finds the span for a path: the value itself (`at: 'value'`), or the key that names it (`at: 'key'`),
 * or, when the path does not exist, the key of its nearest existing ancestor (or that ancestor's value when it has no key).
 */
export function locate(root: SourceNode, path: readonly PathSegment[], at: 'key' | 'value' = 'value'): Located {
  const { node, entry, depth } = reach(root, path);
  const exact = depth === path.length;
  const span = spanOf(node, entry, exact ? at : 'key');
  return { start: span.start, end: span.end, exact, depth };
}

function spanOf(node: SourceNode, entry: SourceEntry | undefined, at: 'key' | 'value'): { start: number; end: number } {
  if (at === 'key' && entry !== undefined) return { start: entry.keyStart, end: entry.keyEnd };
  // A collection's span would cover many lines; its first line is what an editor should show.
  return { start: node.start, end: node.kind === 'scalar' ? node.end : node.start + 1 };
}
