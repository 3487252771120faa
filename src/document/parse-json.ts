import { truncated } from '../text/display-text.js';
import { setOwn } from './own-property.js';
import { LineIndex } from './line-index.js';
import { numberProblem } from './number-fidelity.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { duplicateKeyError, syntaxError, SyntaxProblem, tooDeepError } from './problem.js';
import type { ParseResult } from './parse-yaml.js';
import type { SourceEntry, SourceNode } from './source-map.js';

/**
 * Strict JSON (RFC 8259) with a source map: no trailing commas, comments, single quotes or duplicate keys.
 * A recursive descent bounded by MAX_NESTING_DEPTH, so a hostile file cannot exhaust the stack.
 */
export function parseJson(text: string): ParseResult {
  try {
    const parser = new JsonParser(text);
    parser.skipSpace();
    if (parser.at >= text.length) {
      throw syntaxError({
        messageId: 'empty',
        template: 'The file holds no manifest (it is empty)',
        fix: 'start from fixtures/examples/billing.json or run mcprely init',
        start: 0,
        end: 0,
      });
    }
    const root = parser.value(0);
    parser.skipSpace();
    if (parser.at < text.length) throw parser.unexpected('unexpected content after the JSON value');
    return { ok: true, document: root };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, problem: error.problem };
    throw error;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

class JsonParser {
  at = 0;
  constructor(readonly text: string) {}

  skipSpace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === 32 || code === 10 || code === 13 || code === 9) at++;
      else break;
    }
    this.at = at;
  }

  value(depth: number): { value: unknown; source: SourceNode } {
    const start = this.at;
    const char = this.text[start];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') {
      const value = this.string();
      return { value, source: { kind: 'scalar', start, end: this.at } };
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, start)) {
        this.at += word.length;
        return { value, source: { kind: 'scalar', start, end: this.at } };
      }
    }
    NUMBER.lastIndex = start;
    const number = NUMBER.exec(this.text);
    if (number !== null) {
      this.at += number[0].length;
      const value = Number(number[0]);
      const problem = numberProblem(number[0], value);
      if (problem !== undefined)
        throw syntaxError({ messageId: 'number-out-of-range', ...problem, data: { text: truncated(number[0], 40) }, start, end: this.at });
      return { value, source: { kind: 'scalar', start, end: this.at } };
    }
    throw this.unexpected(char === undefined ? 'the file ends where a value should be' : 'a value cannot start here');
  }

  object(depth: number): { value: unknown; source: SourceNode } {
    const start = this.at++;
    this.checkDepth(depth, start);
    const value: Record<string, unknown> = {};
    const entries = new Map<string, SourceEntry>();
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return { value, source: { kind: 'mapping', start, end: this.at, entries } };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') {
        throw this.unexpected('expected a property name in double quotes');
      }
      const keyStart = this.at;
      const key = this.string();
      const keyEnd = this.at;
      const earlier = entries.get(key);
      if (earlier !== undefined) {
        throw duplicateKeyError(key, keyStart, keyEnd, new LineIndex(this.text).position(earlier.keyStart));
      }
      this.skipSpace();
      if (this.text[this.at] !== ':') throw this.unexpected('expected ":" after the property name');
      this.at++;
      this.skipSpace();
      const child = this.value(depth + 1);
      setOwn(value, key, child.value);
      entries.set(key, { keyStart, keyEnd, value: child.source });
      this.skipSpace();
      const next = this.text[this.at];
      this.at++;
      if (next === '}') return { value, source: { kind: 'mapping', start, end: this.at, entries } };
      if (next !== ',') {
        this.at--;
        throw this.unexpected('expected "," or "}"');
      }
      this.rejectTrailingComma('}');
    }
  }

  array(depth: number): { value: unknown; source: SourceNode } {
    const start = this.at++;
    this.checkDepth(depth, start);
    const value: unknown[] = [];
    const items: SourceNode[] = [];
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return { value, source: { kind: 'sequence', start, end: this.at, items } };
    }
    for (;;) {
      const child = this.value(depth + 1);
      value.push(child.value);
      items.push(child.source);
      this.skipSpace();
      const next = this.text[this.at];
      this.at++;
      if (next === ']') return { value, source: { kind: 'sequence', start, end: this.at, items } };
      if (next !== ',') {
        this.at--;
        throw this.unexpected('expected "," or "]"');
      }
      this.rejectTrailingComma(']');
    }
  }

  string(): string {
    const text = this.text;
    let at = this.at + 1;
    let result = '';
    let chunkStart = at;
    for (;;) {
      const code = text.charCodeAt(at);
      if (Number.isNaN(code)) {
        this.at = at;
        throw this.unexpected('the string is not closed');
      }
      if (code === 34) break;
      if (code < 0x20) {
        this.at = at;
        throw this.unexpected('a control character must be escaped inside a JSON string');
      }
      if (code === 92) {
        result += text.slice(chunkStart, at);
        const escaped = text[at + 1] ?? '';
        if (escaped === 'u') {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.at = at;
            throw this.unexpected('\\u must be followed by four hex digits');
          }
          result += String.fromCharCode(Number.parseInt(hex, 16));
          at += 6;
        } else if (escaped in ESCAPES) {
          result += ESCAPES[escaped];
          at += 2;
        } else {
          this.at = at;
          throw this.unexpected(`\\${escaped} is not a JSON escape`);
        }
        chunkStart = at;
        continue;
      }
      at++;
    }
    result += text.slice(chunkStart, at);
    this.at = at + 1;
    return result;
  }

  /** Called just after a comma: a closing bracket next means a trailing comma, reported at the comma. */
  rejectTrailingComma(closing: string): void {
    const comma = this.at - 1;
    this.skipSpace();
    if (this.text[this.at] === closing) {
      this.at = comma;
      throw this.unexpected(`a trailing comma before "${closing}" is not allowed in JSON`);
    }
  }

  checkDepth(depth: number, start: number): void {
    if (depth >= MAX_NESTING_DEPTH) {
      throw tooDeepError(start, MAX_NESTING_DEPTH);
    }
  }

  unexpected(reason: string): SyntaxProblem {
    return syntaxError({
      messageId: 'malformed-json',
      template: 'The JSON is malformed: {reason}',
      data: { reason },
      fix: 'correct the JSON syntax at this place',
      start: this.at,
      end: this.at + 1,
    });
  }
}
