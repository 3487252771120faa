import { validateManifest } from '../generated/validators.js';
import { describeSchemaError } from './describe-schema-error.js';
import type { ManifestProblem } from './problem.js';
import type { SourceNode } from './source-map.js';

/** Checks parsed data against schemas/manifest.schema.json (precompiled); one problem per ajv error. */
export function validateManifestData(value: unknown, source: SourceNode): ManifestProblem[] {
  if (validateManifest(value)) return [];
  const problems = (validateManifest.errors ?? []).map((error) => describeSchemaError(error, value, source));
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
