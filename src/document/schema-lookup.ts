import type { PathSegment } from './source-map.js';

/** The parts of a JSON Schema that error messages read. */
export interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly unevaluatedProperties?: SchemaNode | boolean;
  readonly patternProperties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
  readonly $defs?: Readonly<Record<string, SchemaNode>>;
}

/** Answers "which schemas apply at this instance path" for one root schema (local $refs only). */
export interface SchemaLookup {
  /** What the document is called in messages ("the manifest", "the configuration"). */
  readonly documentName: string;
  schemasAt(path: readonly PathSegment[]): SchemaNode[];
}

export function schemaLookup(root: SchemaNode, documentName: string): SchemaLookup {
  const withReferences = (schema: SchemaNode | undefined): SchemaNode[] => {
    const facets: SchemaNode[] = [];
    for (let current = schema; current !== undefined; ) {
      facets.push(current);
      current = current.$ref === undefined ? undefined : root.$defs?.[current.$ref.replace('#/$defs/', '')];
    }
    return facets;
  };
  return {
    documentName,
    schemasAt(path) {
      let facets = withReferences(root);
      for (const segment of path) {
        const isIndex = typeof segment === 'number' || /^\d+$/.test(segment);
        const next = facets
          .map((facet) =>
            isIndex
              ? facet.items
              : ((facet.properties !== undefined && Object.hasOwn(facet.properties, segment) ? facet.properties[segment] : undefined) ??
                (typeof facet.additionalProperties === 'object' ? facet.additionalProperties : undefined)),
          )
          .find((facet) => facet !== undefined);
        facets = withReferences(next);
      }
      return facets;
    },
  };
}

export function allowedKeys(facets: readonly SchemaNode[]): string[] {
  return facets.flatMap((facet) => Object.keys(facet.properties ?? {}));
}

export function allowedValues(facets: readonly SchemaNode[]): readonly unknown[] | undefined {
  return facets.find((facet) => facet.enum !== undefined)?.enum;
}
