import { decodeManifestBytes } from './decode.js';
import { parseJson } from './parse-json.js';
import { parseYaml, type ParsedDocument } from './parse-yaml.js';
import type { DocumentProblem } from './problem.js';

export type DocumentParse =
  | { readonly ok: true; readonly text: string; readonly document: ParsedDocument }
  | { readonly ok: false; readonly text: string; readonly problems: readonly DocumentProblem[] };

/** A file's syntax by its name: JSON for `.json`, else YAML. */
export function syntaxOf(file: string): 'json' | 'yaml' {
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

/** Bytes of a YAML or JSON file (JSON by the .json extension unless told) to data with a source map, under the input limits. */
export function parseDocumentBytes(file: string, bytes: Uint8Array, syntax: 'json' | 'yaml' = syntaxOf(file)): DocumentParse {
  const decoded = decodeManifestBytes(bytes);
  if (!decoded.ok) return { ok: false, text: decoded.text, problems: [decoded.problem] };
  const text = decoded.text; // the decoder already dropped a UTF-8 byte-order mark
  const parsed = syntax === 'json' ? parseJson(text) : parseYaml(text);
  return parsed.ok ? { ok: true, text, document: parsed.document } : { ok: false, text, problems: [parsed.problem] };
}
