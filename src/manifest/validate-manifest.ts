import manifestSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import type { DocumentProblem } from '../document/problem.js';
import { schemaLookup, type SchemaNode } from '../document/schema-lookup.js';
import type { SourceNode } from '../document/source-map.js';
import { validateAgainst } from '../document/validate-against.js';
import { validateManifest } from '../generated/validators.js';

const manifestLookup = schemaLookup(manifestSchema as SchemaNode, 'the manifest');

/** Checks parsed data against schemas/manifest.schema.json (precompiled); one problem per ajv error. */
export function validateManifestData(value: unknown, source: SourceNode): DocumentProblem[] {
  return validateAgainst(validateManifest, manifestLookup, value, source);
}
