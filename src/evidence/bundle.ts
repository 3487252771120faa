import type { Fixture } from '../fixtures/fixture-types.js';
import { pathSegment } from '../text/path-segment.js';

/** The bundle as relative path → file content; the caller writes it. Deterministic: the same manifest gives the same bytes. */
export type Bundle = Map<string, string>;

/** Where a bundle's files go as they are made: a Bundle (in memory), or a writer that puts each on disk at once. */
export interface BundleSink {
  set(path: string, content: string): unknown;
  get(path: string): string | undefined;
  has(path: string): boolean;
  keys(): IterableIterator<string>;
  /** Writes a file piece by piece, never holding it whole (a writer to disk has it; a Map joins the pieces). */
  setChunks?(path: string, chunks: Iterable<string>): unknown;
}

/** Sets a file from its pieces: streamed where the sink can, joined where it cannot. */
export function setChunks(bundle: BundleSink, path: string, chunks: Iterable<string>): void {
  if (bundle.setChunks !== undefined) bundle.setChunks(path, chunks);
  else {
    let text = '';
    for (const chunk of chunks) text += chunk;
    bundle.set(path, text);
  }
}

/**
 * Where a fixture's files go under a folder: <operation>/<kind>, each name encoded as one path segment, so
 * an operation named `../../x` or `a/b` stays inside the folder and never meets another's files.
 */
export function fixtureSegments(fixture: Pick<Fixture, 'id' | 'operation'>): [string, string] {
  const prefix = `${fixture.operation}/`;
  const rest = fixture.id.startsWith(prefix) ? fixture.id.slice(prefix.length) : fixture.id;
  return [pathSegment(fixture.operation), pathSegment(rest)];
}

export const transcriptPath = (fixture: Pick<Fixture, 'id' | 'operation'>) => `transcripts/${fixtureSegments(fixture).join('/')}.txt`;
export const fixturePath = (fixture: Pick<Fixture, 'id' | 'operation'>) => `fixtures/${fixtureSegments(fixture).join('/')}.json`;

export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `jsonFile(value)` in pieces, byte for byte the same: the top `levels` of objects and arrays are written a member
 * at a time, each deeper value by JSON.stringify re-indented (JSON text holds no raw newline inside a string).
 */
export function* jsonFileChunks(value: unknown, levels = 2): Generator<string> {
  yield* jsonChunks(value, '', levels);
  yield '\n';
}

function* jsonChunks(value: unknown, indent: string, levels: number): Generator<string> {
  const plain = value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!plain || levels === 0) {
    const text = JSON.stringify(materialised(value), null, 2);
    yield indent === '' ? text : text.replace(/\n/g, `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (isList(value)) {
    let index = 0;
    for (const item of value) {
      yield `${index === 0 ? '[' : ','}\n${inner}`;
      const shown = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item;
      yield* jsonChunks(shown, inner, levels - 1);
      index++;
    }
    yield index === 0 ? '[]' : `\n${indent}]`;
    return;
  }
  let first = true;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* jsonChunks(member, inner, levels - 1);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/**
 * An array, or a sequence made as it is read (a review's operations): written as the array it yields. A Map or a
 * Set is not one (JSON.stringify writes it as an object, and so does this).
 */
function isList(value: object): value is Iterable<unknown> {
  return Array.isArray(value) || (Symbol.iterator in value && !(value instanceof Map) && !(value instanceof Set));
}

/** A value JSON.stringify can write whole: a sequence below the streamed levels becomes its array. */
function materialised(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && isList(value) ? [...value] : value;
}
