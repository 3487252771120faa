import { locate, type Located, type PathSegment } from '../document/source-map.js';
import type { LoadedManifest } from '../manifest/load.js';
import { readPath, type ResolvedOperation } from '../manifest/resolved-operation.js';
import { DERIVED_FIELDS } from './derived-fields.js';

/**
 * What a rule looks at: one operation (defaults merged in), the server, or the whole manifest, and how a
 * field of it maps to a place in the file. Field paths are dotted; `$specVersion`, `$transports`,
 * `$replicas` and `$server.*` reach from an operation to the manifest around it, and the other `$` names are
 * the policy model's answers about the operation (derived-fields.ts).
 */
export interface RuleTarget {
  readonly kind: 'operation' | 'server' | 'manifest';
  readonly manifest: LoadedManifest;
  readonly operation?: ResolvedOperation;
  /** Data the plain (non-$) fields are read from. */
  readonly data: unknown;
}

export interface FieldPlace {
  /** Logical path from the manifest root, for the finding's JSON Pointer. */
  readonly path: readonly PathSegment[];
  /** Finds the span of the field's key or value in the file. */
  locate(at: 'key' | 'value'): Located;
}

export function operationTargets(manifest: LoadedManifest): RuleTarget[] {
  return manifest.operations.map((operation) => ({ kind: 'operation', manifest, operation, data: operation.own }));
}

export function serverTarget(manifest: LoadedManifest): RuleTarget {
  return { kind: 'server', manifest, data: manifest.manifest.server };
}

export function manifestTarget(manifest: LoadedManifest): RuleTarget {
  return { kind: 'manifest', manifest, data: manifest.manifest };
}

/** A compiled field: reads the value from a target and says where it sits in the file. */
export interface FieldAccessor {
  readonly text: string;
  read(target: RuleTarget): unknown;
  place(target: RuleTarget): FieldPlace;
}

export function compileField(text: string): FieldAccessor {
  const [head, ...rest] = text.split('.') as [string, ...string[]];
  switch (head) {
    case '$specVersion':
      return { text, read: (target) => target.manifest.manifest.specVersion, place: (target) => rootPlace(target, ['specVersion']) };
    case '$replicas':
      return {
        text,
        read: (target) => target.manifest.manifest.server.replicas ?? 1,
        place: (target) => rootPlace(target, ['server', 'replicas']),
      };
    case '$server':
      return {
        text,
        read: (target) => readPath(target.manifest.manifest.server, rest),
        place: (target) => rootPlace(target, ['server', ...rest]),
      };
    case '$transports':
      return {
        text,
        read: (target) => target.operation?.own.transports ?? target.manifest.manifest.server.transports,
        place: (target) =>
          target.operation?.own.transports !== undefined ? ownPlace(target, ['transports']) : rootPlace(target, ['server', 'transports']),
      };
    default: {
      if (head.startsWith('$')) return derivedField(text, head);
      const segments = [head, ...rest];
      return {
        text,
        read: (target) => (target.operation === undefined ? readPath(target.data, segments) : target.operation.read(segments)),
        place: (target) => ownPlace(target, segments),
      };
    }
  }
}

function rootPlace(target: RuleTarget, path: readonly PathSegment[]): FieldPlace {
  return { path, locate: (at) => locate(target.manifest.source, path, at) };
}

function ownPlace(target: RuleTarget, segments: readonly string[]): FieldPlace {
  const operation = target.operation;
  if (operation !== undefined)
    return { path: ['operations', operation.index, ...segments], locate: (at) => operation.locate(segments, at) };
  if (target.kind === 'server') return rootPlace(target, ['server', ...segments]);
  return rootPlace(target, segments);
}

/** A question about the operation the policy model answers; its place is the operation itself. */
function derivedField(text: string, name: string): FieldAccessor {
  const derive = DERIVED_FIELDS[name];
  if (derive === undefined)
    throw new Error(
      `unknown field ${text}: the $ fields are $specVersion, $transports, $replicas, $server.* and ${Object.keys(DERIVED_FIELDS).join(', ')}`,
    );
  return {
    text,
    read: (target) =>
      target.operation === undefined ? undefined : derive(target.operation.spec, target.manifest.manifest.server, target.manifest.manifest),
    place: (target) => ownPlace(target, []),
  };
}
