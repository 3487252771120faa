import manifestSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import { validateManifest } from '../generated/validators.js';
import { describeSchemaError } from './describe-schema-error.js';
import type { ManifestProblem } from './problem.js';
import { schemaLookup, type SchemaLookup, type SchemaNode } from './schema-lookup.js';
import type { SourceNode } from './source-map.js';
import type { CompiledValidator } from './validator-types.js';

const manifestLookup = schemaLookup(manifestSchema as SchemaNode, 'the manifest');

/** Checks parsed data against schemas/manifest.schema.json (precompiled); one problem per ajv error. */
export function validateManifestData(value: unknown, source: SourceNode): ManifestProblem[] {
  return validateAgainst(validateManifest, manifestLookup, value, source);
}

/** Runs a precompiled validator and turns each of its errors into a problem with a place. */
export function validateAgainst(validate: CompiledValidator, lookup: SchemaLookup, value: unknown, source: SourceNode): ManifestProblem[] {
  if (validate(value)) return [];
  const problems = (validate.errors ?? []).map((error) => describeSchemaError(error, value, source, lookup));
  // ajv orders errors by schema; a reader goes through the file top to bottom.
  return dropRepeats(problems).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

/** ajv reports some faults once per schema that sees them; a reader needs each sentence once. */
function dropRepeats(problems: ManifestProblem[]): ManifestProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.start}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
