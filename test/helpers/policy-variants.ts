import { readFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import type { PathSegment } from '../../src/document/source-map.js';
import { allowedValues, schemaLookup, type SchemaNode } from '../../src/document/schema-lookup.js';

/** One single-field change of a manifest: where, what it was, what it became. */
export interface PolicyVariant {
  readonly path: readonly PathSegment[];
  readonly from: unknown;
  readonly to: unknown;
  readonly manifest: Record<string, unknown>;
}

const schema = JSON.parse(readFileSync(new URL('../../schemas/manifest.schema.json', import.meta.url), 'utf8')) as SchemaNode;
const lookup = schemaLookup(schema, 'the manifest');

/** Fields that name or describe rather than claim behaviour: varying them changes no policy. */
const NOT_POLICY = new Set(['mcprely', 'specVersion', 'name', 'description', 'method', 'endpoint', 'x-mcprely-ignore', 'probe']);

/**
 * Every single-field change of a manifest's claims: each boolean flipped, each enumerated value swapped for
 * every other one the schema allows, each number moved to its bounds (the schema's minimum, 1, and a hundred
 * times its value). Names, descriptions, free text and lists of names are left alone.
 */
export function policyVariants(file: string): PolicyVariant[] {
  const original = loadYaml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const variants: PolicyVariant[] = [];
  const visit = (value: unknown, path: PathSegment[]): void => {
    const last = path.at(-1);
    if (typeof last === 'string' && NOT_POLICY.has(last)) return;
    if (Array.isArray(value)) {
      if (value.every((item) => typeof item === 'object' && item !== null))
        for (const [index, item] of value.entries()) visit(item, [...path, index]);
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) visit(child, [...path, key]);
      return;
    }
    for (const to of alternatives(value, path)) variants.push({ path, from: value, to, manifest: withValue(original, path, to) });
  };
  visit(original, []);
  return variants;
}

function alternatives(value: unknown, path: readonly PathSegment[]): unknown[] {
  const facets = lookup.schemasAt(path);
  if (typeof value === 'boolean') return [!value];
  if (typeof value === 'string') return [...(allowedValues(facets) ?? [])].filter((other) => other !== value);
  if (typeof value === 'number') {
    const minimum = facets.map((facet) => (facet as { minimum?: number }).minimum).find((found) => found !== undefined) ?? 0;
    return [...new Set([minimum, 1, value * 100])].filter((other) => other !== value && other >= minimum);
  }
  return [];
}

function withValue(root: Record<string, unknown>, path: readonly PathSegment[], to: unknown): Record<string, unknown> {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path.at(-1)!] = to;
  return copy;
}

/** The example itself, as the variants start from it. */
policyVariants.original = (file: string): Record<string, unknown> => loadYaml(readFileSync(file, 'utf8')) as Record<string, unknown>;

export function describeVariant(variant: PolicyVariant): string {
  return `${variant.path.join('.')}: ${JSON.stringify(variant.from)} → ${JSON.stringify(variant.to)}`;
}
