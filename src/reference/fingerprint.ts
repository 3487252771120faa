import { createHash } from 'node:crypto';
import { canonicalJson } from '../json/canonical-json.js';

/** SHA-256 (hex) of the canonical JSON (sorted keys, no spaces) of the operation name and its bound arguments. */
export function fingerprint(operation: string, boundArguments: Readonly<Record<string, unknown>>): string {
  return createHash('sha256')
    .update(canonicalJson({ operation, arguments: boundArguments }))
    .digest('hex');
}
