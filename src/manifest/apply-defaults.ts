import type { MappingSource, SourceEntry } from './source-map.js';
import type { Manifest, OperationSpec, Policy } from './types.js';

/** An operation with defaults merged in; `source` points each field at the place it was written (operation or defaults). */
export interface ResolvedOperation {
  readonly index: number;
  readonly spec: OperationSpec;
  readonly source: MappingSource;
}

/**
 * Merges `defaults` into each operation, field by field: mappings merge recursively, lists and values
 * replace. Builds new objects; the parsed data is never changed (YAML aliases may share it).
 */
export function applyDefaults(manifest: Manifest, root: MappingSource): ResolvedOperation[] {
  const defaults = manifest.defaults;
  const defaultsSource = root.entries.get('defaults')?.value;
  const operationsSource = root.entries.get('operations')!.value;
  return manifest.operations.map((operation, index) => {
    const source = (operationsSource.kind === 'sequence' ? operationsSource.items[index] : undefined) as MappingSource;
    if (defaults === undefined || defaultsSource?.kind !== 'mapping') return { index, spec: operation, source };
    return {
      index,
      spec: mergeData(defaults, operation) as unknown as OperationSpec,
      source: mergeSource(defaultsSource, source),
    };
  });
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function mergeData(base: Policy | Record<string, unknown>, override: Record<string, unknown> | OperationSpec): Record<string, unknown> {
  const merged = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(base)) merged[key] = value;
  for (const [key, value] of Object.entries(override)) {
    const inherited = merged[key];
    merged[key] = isMapping(inherited) && isMapping(value) ? mergeData(inherited, value) : value;
  }
  return merged;
}

function mergeSource(base: MappingSource, override: MappingSource): MappingSource {
  const entries = new Map<string, SourceEntry>(base.entries);
  for (const [key, entry] of override.entries) {
    const inherited = entries.get(key);
    entries.set(key, inherited !== undefined && inherited.value.kind === 'mapping' && entry.value.kind === 'mapping' ? { ...entry, value: mergeSource(inherited.value, entry.value) } : entry);
  }
  return { kind: 'mapping', start: override.start, end: override.end, entries };
}
