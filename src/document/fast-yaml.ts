import { MAX_NESTING_DEPTH } from './limits.js';
import { numberProblem } from './number-fidelity.js';
import { setOwn } from './own-property.js';
import type { MappingSource, ParsedDocument, SequenceSource, SourceEntry, SourceNode } from './source-map.js';
import { resolvePlainScalar } from './yaml-scalar.js';

/** Characters YAML does not allow in a stream (js-yaml refuses them), and lone surrogates. */
const NON_PRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters YAML forbids
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
/** Every character NON_PRINTABLE could match, surrogates all included: a text with none (nearly every one) is cleared in one quick scan. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters YAML forbids
const MAYBE_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/;
/** Anything this reader leaves to js-yaml: tabs, CR, document markers and directives. */
const OUT_OF_SCOPE = /[\t\r]|^(?:---|\.\.\.)(?:[ \n]|$)|^%/m;
/** Characters that cannot start a plain scalar here (indicators, anchors, aliases, tags, block scalars, quotes). */
const PLAIN_START = /[^-?:,[\]{}#&*!|>'"%@`\s]/;
/** Escapes a double-quoted YAML scalar shares with JSON (the others are left to js-yaml). */
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g;

/** Deep nesting is left to js-yaml, well before its own limit, which then says what is wrong. */
const DEPTH_LIMIT = MAX_NESTING_DEPTH - 4;

/** Thrown inside the reader when the text is outside what it reads: js-yaml reads it instead. */
const NOT_MINE = Symbol('not mine');

type Read = { value: unknown; source: SourceNode };

/**
 * A fast reader for the YAML manifests are written in — block mappings and sequences, one-line flow
 * collections, one-line plain and quoted scalars, comments — giving exactly what parse-yaml.ts gives from
 * js-yaml's events (the same values, resolved by the same scalar rules, and the same source map), about five
 * times faster. Anything else (anchors, aliases, tags, block scalars, multi-line scalars or flow collections,
 * tabs, CRLF, several documents, an empty value, a duplicate or merge key, a number out of range, any error)
 * makes it answer undefined, and js-yaml reads the text, with its messages for the errors. A differential test
 * holds the two readers to the same answers.
 */
export function fastParseYaml(text: string): ParsedDocument | undefined {
  if (OUT_OF_SCOPE.test(text) || (MAYBE_NON_PRINTABLE.test(text) && NON_PRINTABLE.test(text))) return undefined;
  try {
    const reader = new FastReader(text);
    return reader.readDocument();
  } catch (error) {
    if (error === NOT_MINE) return undefined;
    throw error;
  }
}

class FastReader {
  #pos = 0;

  constructor(readonly text: string) {}

  readDocument(): ParsedDocument {
    this.#skipBlank();
    if (this.#pos >= this.text.length || this.#column() !== 0) throw NOT_MINE;
    const root = this.#blockNode(0, 0);
    if (root.source.kind !== 'mapping') throw NOT_MINE;
    this.#skipBlank();
    if (this.#pos < this.text.length) throw NOT_MINE;
    return root;
  }

  /** Column of the current position (no tabs: one character, one column). */
  #column(): number {
    return this.#pos - (this.text.lastIndexOf('\n', this.#pos - 1) + 1);
  }

  /** Skips blank lines, comment lines and the indentation of the next content line. */
  #skipBlank(): void {
    const text = this.text;
    for (;;) {
      let at = this.#pos;
      while (text.charCodeAt(at) === 32) at++;
      const code = text.charCodeAt(at);
      if (code === 10) {
        this.#pos = at + 1;
        continue;
      }
      if (code === 35 && (at === 0 || text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 10)) {
        const end = text.indexOf('\n', at);
        this.#pos = end === -1 ? text.length : end + 1;
        continue;
      }
      this.#pos = at;
      return;
    }
  }

  /** After a value on its line: spaces, an optional comment, then the end of the line (or of the text). */
  #endOfLine(): void {
    const text = this.text;
    let at = this.#pos;
    while (text.charCodeAt(at) === 32) at++;
    if (at < text.length && text.charCodeAt(at) !== 10) {
      if (text.charCodeAt(at) !== 35 || at === this.#pos) throw NOT_MINE;
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end;
    }
    this.#pos = at < text.length ? at + 1 : at;
  }

  /** A block node whose first line starts here, at `column`. */
  #blockNode(column: number, depth: number): Read {
    if (depth >= DEPTH_LIMIT) throw NOT_MINE;
    const text = this.text;
    if (text.charCodeAt(this.#pos) === 45 && this.#isSpaceOrEnd(this.#pos + 1)) return this.#blockSequence(column, depth);
    if (this.#keyAhead()) return this.#blockMapping(column, depth);
    throw NOT_MINE;
  }

  #isSpaceOrEnd(at: number): boolean {
    const code = this.text.charCodeAt(at);
    return at >= this.text.length || code === 32 || code === 10;
  }

  /** Whether a key (plain or quoted, then `:` and a space or the end of the line) starts here. */
  #keyAhead(): boolean {
    return this.#scanKey() !== undefined;
  }

  /** A mapping key and its colon; leaves the position after the colon. */
  #key(): { key: string; start: number; end: number; quoted: boolean } {
    const key = this.#scanKey();
    if (key === undefined) throw NOT_MINE;
    this.#pos = key.after;
    if (key.key === '<<' && !key.quoted) throw NOT_MINE;
    return key;
  }

  /**
   * The key that starts here, if one does (without moving): its text, span, whether it is quoted, and the
   * offset after its colon. Undefined when there is none, or one this reader leaves to js-yaml.
   */
  #scanKey(): { key: string; start: number; end: number; quoted: boolean; after: number } | undefined {
    const text = this.text;
    const start = this.#pos;
    const first = text.charCodeAt(start);
    let key: string;
    let end: number;
    let at: number;
    let quoted = false;
    if (first === 34 || first === 39) {
      const read = this.#quotedOrUndefined(start);
      if (read === undefined) return undefined;
      key = read.value;
      end = read.end;
      quoted = true;
      at = end;
    } else {
      if (!PLAIN_START.test(text[start] ?? ' ')) return undefined;
      at = start;
      for (;;) {
        const code = text.charCodeAt(at);
        if (at >= text.length || code === 10) return undefined;
        if (code === 58 && this.#isSpaceOrEnd(at + 1)) break;
        if (code === 35 && text.charCodeAt(at - 1) === 32) return undefined;
        at++;
      }
      end = at;
      while (text.charCodeAt(end - 1) === 32) end--;
      key = text.slice(start, end);
    }
    while (text.charCodeAt(at) === 32) at++;
    if (text.charCodeAt(at) !== 58 || !this.#isSpaceOrEnd(at + 1)) return undefined;
    return { key, start, end, quoted, after: at + 1 };
  }

  #blockMapping(column: number, depth: number): Read {
    if (depth >= DEPTH_LIMIT) throw NOT_MINE;
    const value: Record<string, unknown> = {};
    const entries = new Map<string, SourceEntry>();
    const start = this.#pos;
    let end = start + 1;
    for (;;) {
      const key = this.#key();
      if (entries.has(key.key)) throw NOT_MINE;
      const child = this.#valueAfterIndicator(column, depth, true);
      setOwn(value, key.key, child.value);
      entries.set(key.key, { keyStart: key.start, keyEnd: key.end, value: child.source });
      end = child.source.end;
      this.#skipBlank();
      if (this.#pos >= this.text.length) break;
      const next = this.#column();
      if (next < column) break;
      if (next > column) throw NOT_MINE;
      if (this.text.charCodeAt(this.#pos) === 45 && this.#isSpaceOrEnd(this.#pos + 1)) {
        // A sequence at the mapping's column ends it only when the mapping is an item of that sequence.
        break;
      }
    }
    const source: MappingSource = { kind: 'mapping', start, end, entries };
    return { value, source };
  }

  #blockSequence(column: number, depth: number): Read {
    if (depth >= DEPTH_LIMIT) throw NOT_MINE;
    const value: unknown[] = [];
    const items: SourceNode[] = [];
    const start = this.#pos;
    let end = start + 1;
    for (;;) {
      this.#pos++; // the dash
      const child = this.#valueAfterIndicator(column, depth, false);
      value.push(child.value);
      items.push(child.source);
      end = child.source.end;
      this.#skipBlank();
      if (this.#pos >= this.text.length) break;
      const next = this.#column();
      if (next < column) break;
      if (next > column || this.text.charCodeAt(this.#pos) !== 45 || !this.#isSpaceOrEnd(this.#pos + 1)) {
        if (next === column && this.#keyAhead()) break; // the mapping this sequence is the value of goes on
        throw NOT_MINE;
      }
    }
    const source: SequenceSource = { kind: 'sequence', start, end, items };
    return { value, source };
  }

  /**
   * The value after a key's colon (`inMapping`) or an item's dash: on the same line, or a block on the lines
   * after (more indented; a sequence may sit at a mapping key's own column).
   */
  #valueAfterIndicator(column: number, depth: number, inMapping: boolean): Read {
    const text = this.text;
    while (text.charCodeAt(this.#pos) === 32) this.#pos++;
    const code = text.charCodeAt(this.#pos);
    if (this.#pos >= text.length || code === 10 || (code === 35 && text.charCodeAt(this.#pos - 1) === 32)) {
      this.#endOfLine();
      this.#skipBlank();
      if (this.#pos >= text.length) throw NOT_MINE;
      const next = this.#column();
      const dash = text.charCodeAt(this.#pos) === 45 && this.#isSpaceOrEnd(this.#pos + 1);
      if (next > column || (inMapping && next === column && dash)) return this.#blockNode(next, depth + 1);
      throw NOT_MINE; // an empty value: js-yaml says what it is
    }
    if (!inMapping) {
      // A compact mapping or sequence in a sequence item: `- key: value` goes on at the column after the dash.
      const itemColumn = this.#column();
      if (code === 45 && this.#isSpaceOrEnd(this.#pos + 1)) return this.#blockSequence(itemColumn, depth + 1);
      if (this.#keyAhead()) return this.#blockMapping(itemColumn, depth + 1);
    } else if (this.#keyAhead()) throw NOT_MINE; // `a: b: c`
    const read = this.#inline(depth + 1);
    this.#endOfLine();
    return read;
  }

  /** A value on one line in block context: a flow collection, a quoted or a plain scalar. */
  #inline(depth: number): Read {
    const text = this.text;
    const first = text[this.#pos]!;
    if (first === '[' || first === '{') return this.#flow(depth);
    if (first === '"' || first === "'") return this.#quotedScalar();
    this.#requirePlainStart();
    const start = this.#pos;
    let at = start;
    for (;;) {
      const code = text.charCodeAt(at);
      if (at >= text.length || code === 10) break;
      if (code === 35 && text.charCodeAt(at - 1) === 32) break;
      if (code === 58 && this.#isSpaceOrEnd(at + 1)) throw NOT_MINE;
      at++;
    }
    let end = at;
    while (text.charCodeAt(end - 1) === 32) end--;
    this.#pos = end;
    return this.#plain(start, end);
  }

  /** A quoted scalar here, as a node; leaves the position after its closing quote. */
  #quotedScalar(): Read {
    const start = this.#pos;
    const read = this.#quoted(start);
    this.#pos = read.end;
    return { value: read.value, source: { kind: 'scalar', start, end: read.end } };
  }

  /** A plain scalar may start here: not an indicator (a dash only before a character a plain scalar may hold). */
  #requirePlainStart(): void {
    const text = this.text;
    const first = text[this.#pos]!;
    if (!PLAIN_START.test(first) && !(first === '-' && PLAIN_START.test(text[this.#pos + 1] ?? ' '))) throw NOT_MINE;
  }

  #plain(start: number, end: number): Read {
    const raw = this.text.slice(start, end);
    const value = resolvePlainScalar(raw);
    if (typeof value === 'number' && numberProblem(raw, value) !== undefined) throw NOT_MINE;
    return { value, source: { kind: 'scalar', start, end } };
  }

  /** A quoted scalar on one line starting at `start`; its value and the offset after its closing quote. */
  #quotedOrUndefined(start: number): { value: string; end: number } | undefined {
    const text = this.text;
    const quote = text.charCodeAt(start);
    let at = start + 1;
    if (quote === 39) {
      const lineEnd = text.indexOf('\n', at);
      for (;;) {
        const next = text.indexOf("'", at);
        if (next === -1 || (lineEnd !== -1 && lineEnd < next)) return undefined;
        if (text.charCodeAt(next + 1) === 39) {
          at = next + 2;
          continue;
        }
        return { value: text.slice(start + 1, next).replace(/''/g, "'"), end: next + 1 };
      }
    }
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(at);
      if (at >= text.length || code === 10) return undefined;
      if (code === 92) {
        if (at + 1 >= text.length || text.charCodeAt(at + 1) === 10) return undefined;
        escaped = true;
        at += 2;
        continue;
      }
      if (code === 34) break;
      at++;
    }
    const body = text.slice(start + 1, at);
    if (!escaped) return { value: body, end: at + 1 };
    if (body.replace(JSON_ESCAPE, '').includes('\\')) return undefined;
    try {
      return { value: JSON.parse(`"${body}"`) as string, end: at + 1 };
    } catch {
      return undefined;
    }
  }

  #quoted(start: number): { value: string; end: number } {
    const read = this.#quotedOrUndefined(start);
    if (read === undefined) throw NOT_MINE;
    return read;
  }

  /** A flow collection that closes on its own line. */
  #flow(depth: number): Read {
    if (depth >= DEPTH_LIMIT) throw NOT_MINE;
    const text = this.text;
    const start = this.#pos;
    const mapping = text[start] === '{';
    const close = mapping ? 125 : 93;
    this.#pos++;
    const value: Record<string, unknown> | unknown[] = mapping ? {} : [];
    const entries = new Map<string, SourceEntry>();
    const items: SourceNode[] = [];
    let end = start + 1;
    this.#flowSpace();
    if (text.charCodeAt(this.#pos) === close) {
      this.#pos++;
      return mapping
        ? { value, source: { kind: 'mapping', start, end, entries } }
        : { value, source: { kind: 'sequence', start, end, items } };
    }
    for (;;) {
      if (mapping) {
        const key = this.#flowKey();
        if (entries.has(key.key) || (key.key === '<<' && !key.quoted)) throw NOT_MINE;
        this.#flowSpace();
        const child = this.#flowValue(depth);
        setOwn(value as Record<string, unknown>, key.key, child.value);
        entries.set(key.key, { keyStart: key.start, keyEnd: key.end, value: child.source });
        end = child.source.end;
      } else {
        const child = this.#flowValue(depth);
        (value as unknown[]).push(child.value);
        items.push(child.source);
        end = child.source.end;
      }
      this.#flowSpace();
      const code = text.charCodeAt(this.#pos);
      if (code === close) {
        this.#pos++;
        break;
      }
      if (code !== 44) throw NOT_MINE;
      this.#pos++;
      this.#flowSpace();
      if (text.charCodeAt(this.#pos) === close) throw NOT_MINE; // a trailing comma: js-yaml decides
    }
    return mapping
      ? { value, source: { kind: 'mapping', start, end, entries } }
      : { value, source: { kind: 'sequence', start, end, items } };
  }

  #flowSpace(): void {
    while (this.text.charCodeAt(this.#pos) === 32) this.#pos++;
  }

  #flowKey(): { key: string; start: number; end: number; quoted: boolean } {
    const text = this.text;
    const start = this.#pos;
    const first = text[start]!;
    let key: string;
    let end: number;
    let quoted = false;
    if (first === '"' || first === "'") {
      const read = this.#quoted(start);
      key = read.value;
      end = read.end;
      quoted = true;
      this.#pos = end;
      this.#flowSpace();
      if (text.charCodeAt(this.#pos) !== 58) throw NOT_MINE;
    } else {
      if (!PLAIN_START.test(first)) throw NOT_MINE;
      let at = start;
      for (;;) {
        const code = text.charCodeAt(at);
        if (at >= text.length || code === 10 || code === 44 || code === 91 || code === 93 || code === 123 || code === 125) throw NOT_MINE;
        if (code === 35 && text.charCodeAt(at - 1) === 32) throw NOT_MINE;
        if (code === 58 && text.charCodeAt(at + 1) === 32) break;
        at++;
      }
      end = at;
      while (text.charCodeAt(end - 1) === 32) end--;
      key = text.slice(start, end);
      this.#pos = at;
    }
    this.#pos++; // the colon
    if (text.charCodeAt(this.#pos) !== 32) throw NOT_MINE;
    return { key, start, end, quoted };
  }

  #flowValue(depth: number): Read {
    const text = this.text;
    const first = text[this.#pos]!;
    if (first === '[' || first === '{') return this.#flow(depth + 1);
    if (first === '"' || first === "'") {
      const read = this.#quotedScalar();
      this.#flowSpace();
      if (text.charCodeAt(this.#pos) === 58) throw NOT_MINE; // a single-pair mapping in a sequence
      return read;
    }
    this.#requirePlainStart();
    const start = this.#pos;
    let at = start;
    for (;;) {
      const code = text.charCodeAt(at);
      if (at >= text.length || code === 10) throw NOT_MINE;
      if (code === 44 || code === 93 || code === 125) break;
      if (code === 91 || code === 123) throw NOT_MINE;
      if (code === 35 && text.charCodeAt(at - 1) === 32) throw NOT_MINE;
      if (code === 58) throw NOT_MINE; // a colon in a flow scalar: js-yaml decides what it is
      at++;
    }
    let end = at;
    while (text.charCodeAt(end - 1) === 32) end--;
    this.#pos = end;
    return this.#plain(start, end);
  }
}
