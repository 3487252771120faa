import { describeSchemaError } from './describe-schema-error.js';
import type { DocumentProblem } from './problem.js';
import type { SchemaLookup, SchemaNode } from './schema-lookup.js';
import type { SourceNode } from './source-map.js';
import type { CompiledValidator, SchemaError } from './validator-types.js';

/** Runs a precompiled validator and turns each of its errors into a problem with a place. */
export function validateAgainst(validate: CompiledValidator, lookup: SchemaLookup, value: unknown, source: SourceNode): DocumentProblem[] {
  const inherited = inheritedNameKeys(value, lookup);
  if (validate(value) && inherited.length === 0) return [];
  // An "if/then" error only says that a "then" failed; the failure itself is reported beside it.
  const errors = [...(validate.errors ?? []).filter((error) => error.keyword !== 'if'), ...inherited];
  const problems = errors.map((error) => describeSchemaError(error, value, source, lookup));
  // ajv orders errors by schema; a reader goes through the file top to bottom.
  return dropRepeats(problems).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

/** Names every object inherits: a validator that looks keys up in a plain object finds these "allowed". */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Keys named like Object.prototype's members (`constructor`, `toString`, `__proto__`, …) where the schema
 * allows only its own fields: ajv's check of evaluated properties looks them up in a plain object and takes
 * them for known, so they are reported here, as any unknown field is.
 */
function inheritedNameKeys(value: unknown, lookup: SchemaLookup): SchemaError[] {
  const errors: SchemaError[] = [];
  // One path, grown and shrunk as the walk goes (every node of a large manifest is visited: no copy per node).
  const path: string[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(String(index));
        walk(node[index]);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(node)) {
      if (INHERITED_NAMES.has(key) && closedWithout(lookup.schemasAt(path), key))
        errors.push({
          keyword: 'additionalProperties',
          instancePath: pointer(path),
          schemaPath: '#/additionalProperties',
          params: { additionalProperty: key },
        });
      path.push(key);
      walk((node as Record<string, unknown>)[key]);
      path.pop();
    }
  };
  walk(value);
  return errors;
}

/** The schemas at a place allow no field but their own, and `key` is not one of them. */
function closedWithout(facets: readonly SchemaNode[], key: string): boolean {
  const closed = facets.some((facet) => facet.additionalProperties === false || facet.unevaluatedProperties === false);
  const known = facets.some(
    (facet) =>
      (facet.properties !== undefined && Object.hasOwn(facet.properties, key)) ||
      Object.keys(facet.patternProperties ?? {}).some((pattern) => new RegExp(pattern, 'u').test(key)),
  );
  return closed && !known;
}

function pointer(path: readonly string[]): string {
  return path.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** ajv reports some faults once per schema that sees them; a reader needs each sentence once. */
function dropRepeats(problems: DocumentProblem[]): DocumentProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.start}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
