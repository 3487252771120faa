import manifestSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import type { PathSegment } from './source-map.js';

/** The parts of a JSON Schema that error messages read. */
export interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly patternProperties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
}

const root = manifestSchema as unknown as SchemaNode & { $defs: Record<string, SchemaNode> };

/** A schema and every schema it references with $ref: together they describe one place in a manifest. */
function withReferences(schema: SchemaNode | undefined): SchemaNode[] {
  const facets: SchemaNode[] = [];
  for (let current = schema; current !== undefined; ) {
    facets.push(current);
    current = current.$ref === undefined ? undefined : root.$defs[current.$ref.replace('#/$defs/', '')];
  }
  return facets;
}

/** The schemas that apply at an instance path of a manifest ([] when the path leaves the schema). */
export function schemasAt(path: readonly PathSegment[]): SchemaNode[] {
  let facets = withReferences(root);
  for (const segment of path) {
    const next = facets.map((facet) => (typeof segment === 'number' || /^\d+$/.test(segment) ? facet.items : facet.properties?.[segment])).find((facet) => facet !== undefined);
    facets = withReferences(next);
  }
  return facets;
}

export function allowedKeys(facets: readonly SchemaNode[]): string[] {
  return facets.flatMap((facet) => Object.keys(facet.properties ?? {}));
}

export function allowedValues(facets: readonly SchemaNode[]): readonly unknown[] | undefined {
  return facets.find((facet) => facet.enum !== undefined)?.enum;
}
