import { truncated } from '../text/display-text.js';
import { setOwn } from './own-property.js';
import { EVENT_ID, getScalarValue, parseEvents, type Event, type ScalarEvent } from 'js-yaml';
import { LineIndex } from './line-index.js';
import { MAX_ALIAS_CHARACTERS, MAX_ALIAS_EXPANSION, MAX_NESTING_DEPTH } from './limits.js';
import { duplicateKeyError, syntaxError, SyntaxProblem, tooDeepError, type DocumentProblem } from './problem.js';
import type { MappingSource, ParsedDocument, SequenceSource, SourceEntry, SourceNode } from './source-map.js';
import { findUnclosedOpener } from './yaml-error-hint.js';
import { fastParseYaml } from './fast-yaml.js';
import { numberProblem } from './number-fidelity.js';
import { resolvePlainScalar, resolveTaggedScalar } from './yaml-scalar.js';

export type { ParsedDocument } from './source-map.js';

export type ParseResult =
  | { readonly ok: true; readonly document: ParsedDocument }
  | { readonly ok: false; readonly problem: DocumentProblem };

interface Anchored {
  readonly value: unknown;
  readonly source: SourceNode;
  /** Nodes in the value. */
  readonly size: number;
  /** Characters of scalar text in the value: an alias of a long string copies every one of them. */
  readonly characters: number;
}

/**
 * Parses one YAML document into data plus a source map. Stops at the first problem: malformed YAML,
 * a duplicate key, nesting deeper than MAX_NESTING_DEPTH, an alias bomb, several documents, unsupported tags.
 */
export function parseYaml(text: string): ParseResult {
  const fast = reader === 'fast' ? fastParseYaml(text) : undefined;
  if (fast !== undefined) return { ok: true, document: fast };
  return parseYamlEvents(text);
}

let reader: 'fast' | 'js-yaml' = 'fast';

/**
 * Reads every file through js-yaml alone (`js-yaml`), or through the fast reader first (`fast`, the default):
 * the CLI's `MCPRELY_YAML=js-yaml` switch, for telling the two readers apart.
 */
export function readYamlWith(which: 'fast' | 'js-yaml'): void {
  reader = which;
}

/** The same, always through js-yaml's events (everything fast-yaml.ts leaves to it, and its differential test). */
export function parseYamlEvents(text: string): ParseResult {
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: MAX_NESTING_DEPTH });
  } catch (error) {
    return { ok: false, problem: problemFromYamlException(text, error) };
  }
  try {
    return { ok: true, document: new EventReader(text, events).readSingleDocument() };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, problem: error.problem };
    throw error;
  }
}

function problemFromYamlException(text: string, error: unknown): DocumentProblem {
  const exception = error as { reason?: string; mark?: { position: number } };
  if (typeof exception.reason !== 'string') throw error;
  const position = Math.min(exception.mark?.position ?? 0, text.length);
  if (exception.reason.startsWith('nesting exceeded maxDepth')) return tooDeepError(position, MAX_NESTING_DEPTH).problem;
  const opener = findUnclosedOpener(text, position);
  if (opener !== undefined) {
    return syntaxError({
      messageId: 'unclosed',
      template: 'The YAML is malformed: {what}',
      data: { what: opener.what },
      fix: 'close it on the same line or remove it',
      start: opener.offset,
      end: opener.offset + 1,
    }).problem;
  }
  return syntaxError({
    messageId: 'malformed-yaml',
    template: 'The YAML is malformed: {reason}',
    data: { reason: exception.reason },
    fix: 'correct the YAML syntax at this place',
    start: position,
    end: position + 1,
  }).problem;
}

class EventReader {
  #index = 0;
  #aliasExpansion = 0;
  #aliasCharacters = 0;
  readonly #anchors = new Map<string, Anchored>();

  constructor(
    readonly text: string,
    readonly events: Event[],
  ) {}

  readSingleDocument(): ParsedDocument {
    const events = this.events;
    if (events.length === 0) throw this.#emptyDocument();
    this.#index = 1; // skip DOCUMENT
    if (events[1]?.type === EVENT_ID.POP) throw this.#emptyDocument();
    const root = this.#readNode(0);
    this.#index++; // POP of the document
    if (this.#index < events.length) throw this.#secondDocument();
    return root;
  }

  #readNode(depth: number): Anchored {
    const event = this.events[this.#index++]!;
    switch (event.type) {
      case EVENT_ID.SCALAR:
        return this.#anchor(event, this.#readScalar(event));
      case EVENT_ID.MAPPING:
        this.#checkCollectionTag(event, '!!map');
        return this.#anchor(event, this.#readMapping(event.start, depth));
      case EVENT_ID.SEQUENCE:
        this.#checkCollectionTag(event, '!!seq');
        return this.#anchor(event, this.#readSequence(event.start, depth));
      case EVENT_ID.ALIAS:
        return this.#readAlias(event.anchorStart, event.anchorEnd);
      default:
        throw new Error(`unexpected YAML event ${event.type}`);
    }
  }

  #anchor(event: { anchorStart: number; anchorEnd: number; tagStart: number; tagEnd: number }, node: Anchored): Anchored {
    if (event.anchorStart >= 0) this.#anchors.set(this.text.slice(event.anchorStart, event.anchorEnd), node);
    return node;
  }

  #checkCollectionTag(event: { tagStart: number; tagEnd: number }, allowed: string): void {
    if (event.tagStart < 0) return;
    const tag = normaliseTag(this.text.slice(event.tagStart, event.tagEnd));
    if (tag === allowed || tag === '!') return;
    throw syntaxError({
      messageId: 'unsupported-tag',
      template: 'The YAML tag {tag} is not supported here',
      data: { tag },
      fix: 'remove the tag; manifests use plain YAML values',
      start: event.tagStart,
      end: event.tagEnd,
    });
  }

  #readScalar(event: ScalarEvent): Anchored {
    const raw = getScalarValue(this.text, event);
    // Quoted scalars start one character before their content: point at the quote.
    const quoted = event.style === 2 || event.style === 3;
    const start = quoted ? event.valueStart - 1 : event.valueStart;
    const end = quoted ? event.valueEnd + 1 : event.valueEnd;
    let value: unknown;
    if (event.tagStart >= 0) {
      const tag = normaliseTag(this.text.slice(event.tagStart, event.tagEnd));
      value = resolveTaggedScalar(tag, raw);
      if (value === undefined) {
        throw syntaxError({
          messageId: 'unsupported-tag',
          template: 'The YAML tag {tag} is not supported here (value {value})',
          data: { tag, value: JSON.stringify(raw) },
          fix: 'remove the tag; manifests use plain YAML values',
          start: event.tagStart,
          end: event.tagEnd,
        });
      }
    } else {
      value = event.style === 1 ? resolvePlainScalar(raw) : raw;
    }
    if (typeof value === 'number') {
      const problem = numberProblem(raw, value);
      if (problem !== undefined)
        throw syntaxError({ messageId: 'number-out-of-range', ...problem, data: { text: truncated(raw, 40) }, start, end });
    }
    return { value, source: { kind: 'scalar', start, end }, size: 1, characters: raw.length };
  }

  #readMapping(start: number, depth: number): Anchored {
    const value: Record<string, unknown> = {};
    const entries = new Map<string, SourceEntry>();
    let size = 1;
    let characters = 0;
    let end = start + 1;
    const events = this.events;
    while (events[this.#index]!.type !== EVENT_ID.POP) {
      const keyEvent = events[this.#index]!;
      if (keyEvent.type !== EVENT_ID.SCALAR) throw this.#complexKey(keyEvent, start);
      this.#index++;
      const key = getScalarValue(this.text, keyEvent);
      const quoted = keyEvent.style === 2 || keyEvent.style === 3;
      const keyStart = quoted ? keyEvent.valueStart - 1 : keyEvent.valueStart;
      const keyEnd = quoted ? keyEvent.valueEnd + 1 : keyEvent.valueEnd;
      const earlier = entries.get(key);
      if (earlier !== undefined) throw this.#duplicateKey(key, keyStart, keyEnd, earlier);
      if (key === '<<' && !quoted) {
        throw syntaxError({
          messageId: 'merge-key',
          template: 'YAML merge keys (<<) are not supported in manifests',
          fix: 'put shared settings under defaults, which every operation inherits',
          start: keyStart,
          end: keyEnd,
        });
      }
      const child = this.#readNode(depth + 1);
      setOwn(value, key, child.value);
      entries.set(key, { keyStart, keyEnd, value: child.source });
      size += child.size;
      characters += key.length + child.characters;
      end = child.source.end;
    }
    this.#index++;
    const source: MappingSource = { kind: 'mapping', start, end, entries };
    return { value, source, size, characters };
  }

  #readSequence(start: number, depth: number): Anchored {
    const value: unknown[] = [];
    const items: SourceNode[] = [];
    let size = 1;
    let characters = 0;
    let end = start + 1;
    while (this.events[this.#index]!.type !== EVENT_ID.POP) {
      const child = this.#readNode(depth + 1);
      value.push(child.value);
      items.push(child.source);
      size += child.size;
      characters += child.characters;
      end = child.source.end;
    }
    this.#index++;
    const source: SequenceSource = { kind: 'sequence', start, end, items };
    return { value, source, size, characters };
  }

  #readAlias(anchorStart: number, anchorEnd: number): Anchored {
    const name = this.text.slice(anchorStart, anchorEnd);
    const target = this.#anchors.get(name);
    const span = { start: anchorStart - 1, end: anchorEnd };
    if (target === undefined) {
      throw syntaxError({
        messageId: 'unknown-alias',
        template: 'The alias *{name} names no anchor defined before it',
        data: { name },
        fix: `define &${name} earlier in the file or remove the alias`,
        ...span,
      });
    }
    this.#aliasExpansion += target.size;
    this.#aliasCharacters += target.characters;
    // Two budgets: nodes (a billion laughs) and characters of text (one long string aliased many times).
    const over =
      this.#aliasCharacters > MAX_ALIAS_CHARACTERS
        ? { what: 'copy more than {limit} characters of text', limit: MAX_ALIAS_CHARACTERS, fix: 'use fewer aliases of long text' }
        : this.#aliasExpansion > MAX_ALIAS_EXPANSION
          ? { what: 'expand to more than {limit} nodes', limit: MAX_ALIAS_EXPANSION, fix: 'use fewer nested aliases' }
          : undefined;
    if (over !== undefined)
      throw syntaxError({
        messageId: 'alias-bomb',
        template: `YAML aliases here ${over.what} (an alias bomb?)`,
        data: { limit: over.limit },
        fix: `write the values out or ${over.fix}`,
        ...span,
      });
    return target;
  }

  #duplicateKey(key: string, start: number, end: number, earlier: SourceEntry): SyntaxProblem {
    return duplicateKeyError(key, start, end, new LineIndex(this.text).position(earlier.keyStart));
  }

  #complexKey(event: Event, mappingStart: number): SyntaxProblem {
    const start = 'start' in event ? event.start : 'anchorStart' in event ? event.anchorStart : mappingStart;
    return syntaxError({
      messageId: 'complex-key',
      template: 'A mapping key must be a plain value, not a list, mapping or alias',
      fix: 'use a string key',
      start,
      end: start + 1,
    });
  }

  #emptyDocument(): SyntaxProblem {
    return syntaxError({
      messageId: 'empty',
      template: 'The file holds no manifest (it is empty or only comments)',
      fix: 'start from fixtures/examples/billing.yaml or run mcprely init',
      start: 0,
      end: 0,
    });
  }

  #secondDocument(): SyntaxProblem {
    // DOCUMENT events carry no offset: show the separator line before the second document's content.
    const next = this.events[this.#index + 1];
    const contentStart =
      next !== undefined && 'start' in next ? next.start : next !== undefined && 'valueStart' in next ? next.valueStart : this.text.length;
    const separator = this.text.lastIndexOf('\n---', contentStart);
    const start = separator === -1 ? contentStart : separator + 1;
    return syntaxError({
      messageId: 'several-documents',
      template: 'The file holds more than one YAML document; a manifest is one document',
      fix: 'put each manifest in its own file, or merge the operations into one list',
      start,
      end: start + 3,
    });
  }
}

function normaliseTag(tag: string): string {
  const verbatim = /^!<tag:yaml\.org,2002:(\w+)>$/.exec(tag);
  return verbatim ? `!!${verbatim[1]}` : tag;
}
