import manifestSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import type { DocumentProblem } from '../document/problem.js';
import { schemaLookup, type SchemaNode } from '../document/schema-lookup.js';
import type { SourceNode } from '../document/source-map.js';
import { validateAgainst } from '../document/validate-against.js';
import { validateManifest } from '../generated/validate-manifest.js';

const manifestLookup = schemaLookup(manifestSchema as SchemaNode, 'the manifest');

/** Checks parsed data against schemas/manifest.schema.json (precompiled); one problem per ajv error. */
export function validateManifestData(value: unknown, source: SourceNode): DocumentProblem[] {
  return validateAgainst(validateManifest, manifestLookup, value, source).map((problem) => namingOperation(problem, value));
}

/**
 * A problem inside an operation that has a name carries it (`data.operation`), as rule findings do, so its
 * baseline entry and SARIF fingerprint survive reordering the operations.
 */
function namingOperation(problem: DocumentProblem, value: unknown): DocumentProblem {
  const [first, segment] = problem.path ?? [];
  const index = typeof segment === 'string' && /^\d+$/.test(segment) ? Number(segment) : segment;
  if (first !== 'operations' || typeof index !== 'number' || 'operation' in problem.data) return problem;
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'operations')) return problem;
  const operations = (value as { operations?: unknown }).operations;
  const operation = Array.isArray(operations) ? (operations[index] as { name?: unknown } | undefined) : undefined;
  const name = typeof operation === 'object' && operation !== null ? operation.name : undefined;
  return typeof name === 'string' ? { ...problem, data: { ...problem.data, operation: name } } : problem;
}
