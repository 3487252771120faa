import { setOwn } from '../document/own-property.js';
import { locate, type Located, type MappingSource, type PathSegment, type SourceEntry } from '../document/source-map.js';
import type { Manifest, OperationSpec, Policy } from './types.js';

/**
 * An operation with `defaults` merged in, field by field: mappings merge recursively, lists and values
 * replace. Rules read single fields through `read` and `locate`, which look in the operation first and
 * then in the defaults, so linting never builds the merged objects; `spec` and `source` build them on
 * first use for whoever needs the whole operation (reviews, fixtures). The parsed data is never changed
 * (YAML aliases may share it).
 */
export class ResolvedOperation {
  #spec: OperationSpec | undefined;
  #source: MappingSource | undefined;

  constructor(
    readonly index: number,
    /** The operation as written. */
    readonly own: OperationSpec,
    readonly ownSource: MappingSource,
    readonly defaults: Policy | undefined,
    readonly defaultsSource: MappingSource | undefined,
  ) {}

  /** The merged operation. */
  get spec(): OperationSpec {
    this.#spec ??= this.defaults === undefined ? this.own : (mergeData(this.defaults, this.own) as unknown as OperationSpec);
    return this.#spec;
  }

  /** Where each field of the merged operation was written (in the operation or in defaults). */
  get source(): MappingSource {
    this.#source ??= this.defaultsSource === undefined ? this.ownSource : mergeSource(this.defaultsSource, this.ownSource);
    return this.#source;
  }

  /** The merged value at a dotted path, without merging anything else. */
  read(segments: readonly string[]): unknown {
    const own = readPath(this.own, segments);
    if (this.defaults === undefined) return own;
    if (own !== undefined && !isMapping(own)) return own;
    const inherited = readPath(this.defaults, segments);
    if (own === undefined) return inherited;
    return isMapping(inherited) ? mergeData(inherited, own) : own;
  }

  /** Where the merged value at a path was written, or the deepest existing ancestor when it is missing. */
  locate(segments: readonly PathSegment[], at: 'key' | 'value'): Located {
    const own = locate(this.ownSource, segments, at);
    if (own.exact || this.defaultsSource === undefined) return own;
    const inherited = locate(this.defaultsSource, segments, at);
    return inherited.exact || inherited.depth > own.depth ? inherited : own;
  }
}

export function resolveOperations(manifest: Manifest, root: MappingSource): ResolvedOperation[] {
  const defaultsSource = root.entries.get('defaults')?.value;
  const operationsSource = root.entries.get('operations')!.value;
  return manifest.operations.map(
    (operation, index) =>
      new ResolvedOperation(
        index,
        operation,
        (operationsSource.kind === 'sequence' ? operationsSource.items[index] : undefined) as MappingSource,
        manifest.defaults,
        defaultsSource?.kind === 'mapping' ? defaultsSource : undefined,
      ),
  );
}

export function readPath(data: unknown, segments: readonly string[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mergeData(base: object, override: object): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(base)) setOwn(merged, key, (base as Record<string, unknown>)[key]);
  for (const key of Object.keys(override)) {
    const value = (override as Record<string, unknown>)[key];
    const inherited = Object.hasOwn(merged, key) ? merged[key] : undefined;
    setOwn(merged, key, isMapping(inherited) && isMapping(value) ? mergeData(inherited, value) : value);
  }
  return merged;
}

function mergeSource(base: MappingSource, override: MappingSource): MappingSource {
  const entries = new Map<string, SourceEntry>(base.entries);
  for (const [key, entry] of override.entries) {
    const inherited = entries.get(key);
    entries.set(
      key,
      inherited !== undefined && inherited.value.kind === 'mapping' && entry.value.kind === 'mapping'
        ? { ...entry, value: mergeSource(inherited.value, entry.value) }
        : entry,
    );
  }
  return { kind: 'mapping', start: override.start, end: override.end, entries };
}
