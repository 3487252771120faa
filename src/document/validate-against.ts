import { describeSchemaError } from './describe-schema-error.js';
import type { DocumentProblem } from './problem.js';
import type { SchemaLookup } from './schema-lookup.js';
import type { SourceNode } from './source-map.js';
import type { CompiledValidator } from './validator-types.js';

/** Runs a precompiled validator and turns each of its errors into a problem with a place. */
export function validateAgainst(validate: CompiledValidator, lookup: SchemaLookup, value: unknown, source: SourceNode): DocumentProblem[] {
  if (validate(value)) return [];
  const problems = (validate.errors ?? []).map((error) => describeSchemaError(error, value, source, lookup));
  // ajv orders errors by schema; a reader goes through the file top to bottom.
  return dropRepeats(problems).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
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
