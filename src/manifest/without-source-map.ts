import type { MappingSource } from '../document/source-map.js';
import type { LoadedManifest } from './load.js';
import { ResolvedOperation } from './resolved-operation.js';

/**
 * The manifest without where each value was written (its text and source map): what `evidence` keeps once lint
 * is done, since fixtures and reviews read values, never positions (the findings carry their own). For 10 000
 * operations the source map is about 10 MB. Anything that asks this manifest for a position gets the top of an
 * empty file, so only code that reads no positions may be given it.
 */
export function withoutSourceMap(manifest: LoadedManifest): LoadedManifest {
  const empty: MappingSource = { kind: 'mapping', start: 0, end: 0, entries: new Map() };
  return {
    ...manifest,
    text: '',
    source: empty,
    operations: manifest.operations.map(
      (operation) => new ResolvedOperation(operation.index, operation.own, empty, operation.defaults, undefined),
    ),
  };
}
