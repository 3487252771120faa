import { readFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import type { PathSegment } from '../../src/document/source-map.js';
import { allowedValues, schemaLookup, type SchemaNode } from '../../src/document/schema-lookup.js';

/** One single-field change of a manifest: where, what it was (undefined: unset), what it became (undefined: removed). */
export interface PolicyVariant {
  readonly path: readonly PathSegment[];
  /** The operation the change is made on, or `defaults`, or `server`. */
  readonly scope: string;
  readonly from: unknown;
  readonly to: unknown;
  readonly manifest: Record<string, unknown>;
}

const schema = JSON.parse(readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8')) as SchemaNode & {
  $defs: Record<string, SchemaNode>;
};
const lookup = schemaLookup(schema, 'the manifest');

/** A value below any round trip a real host and server make (a local stdio call takes milliseconds, a network one tens). */
export const BELOW_A_ROUND_TRIP_MS = 5;

type Manifest = Record<string, unknown>;
type Node = Record<string | number, unknown>;

/** One field the policy schema declares, with the facets that say which values it takes. */
interface PolicyField {
  readonly path: readonly string[];
  readonly facets: readonly SchemaNode[];
}

/**
 * Every leaf of the policy schema (`$defs/policy`) an operation or `defaults` may set: booleans, enumerations and
 * numbers, read from the schema so a field added to it is varied without touching this file. Free text, names and
 * lists of names (key arguments, fingerprints, refetch lists) claim no behaviour a single value flips.
 */
export function policyFields(): readonly PolicyField[] {
  const fields: PolicyField[] = [];
  const visit = (path: string[]): void => {
    const facets = lookup.schemasAt(['defaults', ...path]);
    const properties = facets.flatMap((facet) => Object.entries(facet.properties ?? {}));
    if (properties.length > 0) {
      for (const [key] of properties) visit([...path, key]);
      return;
    }
    if (isVariable(facets)) fields.push({ path, facets });
  };
  visit([]);
  return fields;
}

function isVariable(facets: readonly SchemaNode[]): boolean {
  return facets.some(
    (facet) => facet.type === 'boolean' || facet.type === 'integer' || facet.type === 'number' || facet.enum !== undefined,
  );
}

/**
 * Every single-field change of a manifest, generated from the schema and each operation's kind rather than from the
 * manifest's text: for every operation and for `defaults`, every policy field — set there, inherited from
 * `defaults`, or unset — takes each boolean, each enumerated value, and numbers at the schema's minimum, at 1, below a
 * round trip, and far above its peers (a hundred times the largest duration the operation declares); a field the
 * operation sets is also removed (so it inherits, or is unset). An operation is also narrowed to each one of the
 * server's transports, and the server's own fields (response mode, replicas, tenancy, keep-alive, proxy idle) vary.
 */
export function schemaVariants(file: string): PolicyVariant[] {
  const original = schemaVariants.original(file);
  const variants: PolicyVariant[] = [];
  const fields = policyFields();
  const defaults = (original['defaults'] ?? {}) as Node;
  const operations = (original['operations'] ?? []) as Node[];
  const add = (scope: string, path: readonly PathSegment[], from: unknown, to: unknown): void => {
    if (Object.is(from, to)) return;
    variants.push({ path, scope, from, to, manifest: withValue(original, path, to) });
  };

  const vary = (scope: string, base: readonly PathSegment[], own: Node, inherited: Node | undefined): void => {
    const peers = durations(own, inherited);
    for (const field of fields) {
      const set = valueAt(own, field.path);
      const effective = set ?? (inherited === undefined ? undefined : valueAt(inherited, field.path));
      const path = [...base, ...field.path];
      const values = new Set<unknown>(candidates(field.facets, effective, peers));
      for (const to of values) if (!Object.is(to, effective)) add(scope, path, set, to);
      if (set !== undefined) add(scope, path, set, undefined);
    }
  };

  vary('defaults', ['defaults'], defaults, undefined);
  for (const [index, operation] of operations.entries()) {
    vary(String(operation['name']), ['operations', index], operation, defaults);
    const transports = ((original['server'] as Node | undefined)?.['transports'] ?? []) as string[];
    if (operation['transports'] === undefined && transports.length > 1)
      for (const transport of transports) add(String(operation['name']), ['operations', index, 'transports'], undefined, [transport]);
  }
  const server = (original['server'] ?? {}) as Node;
  for (const path of [
    ['server', 'http', 'responseMode'],
    ['server', 'replicas'],
    ['server', 'tenancy'],
    ['server', 'http', 'keepaliveMs'],
    ['server', 'http', 'proxyIdleTimeoutMs'],
  ]) {
    if (path[1] === 'http' && server['http'] === undefined) continue;
    const facets = lookup.schemasAt(path);
    const set = valueAt(original, path);
    for (const to of candidates(facets, set, durations((server['http'] as Node | undefined) ?? {}, undefined)))
      add('server', path, set, to);
    if (set !== undefined) add('server', path, set, undefined);
  }
  return variants;
}

/** The values a field is tried at: both booleans, every enumerated value, numbers at their bounds and extremes. */
function candidates(facets: readonly SchemaNode[], effective: unknown, peers: readonly number[]): unknown[] {
  const enumerated = allowedValues(facets);
  if (enumerated !== undefined) return [...enumerated];
  if (facets.some((facet) => facet.type === 'boolean')) return [true, false];
  const minimum = facets.map((facet) => (facet as { minimum?: number }).minimum).find((found) => found !== undefined) ?? 0;
  const largest = Math.max(typeof effective === 'number' ? effective : 0, ...peers, 1);
  const far = largest * 100;
  return [...new Set([minimum, 1, BELOW_A_ROUND_TRIP_MS, far])].filter((value) => value >= minimum);
}

/** Every duration (a `…Ms` number) the operation declares or inherits: the peers a value is far above. */
function durations(own: Node, inherited: Node | undefined): number[] {
  const found: number[] = [];
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'number' && key.endsWith('Ms')) found.push(value);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [child, inner] of Object.entries(value)) visit(inner, child);
  };
  visit(own, '');
  if (inherited !== undefined) visit(inherited, '');
  return found;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Node)[segment];
  }
  return node;
}

/** A copy of the manifest with one field set (creating the objects on its way) or, for `undefined`, removed. */
function withValue(root: Manifest, path: readonly PathSegment[], to: unknown): Manifest {
  const copy = structuredClone(root);
  let node = copy as Node;
  for (const segment of path.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Node;
  }
  if (to === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = to;
  return copy;
}

/** The example itself, as the variants start from it. */
schemaVariants.original = (file: string): Manifest => loadYaml(readFileSync(file, 'utf8')) as Manifest;

export function describeVariant(variant: PolicyVariant): string {
  const shown = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));
  return `${variant.path.join('.')}: ${shown(variant.from)} → ${shown(variant.to)}`;
}
