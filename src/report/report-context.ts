import type { RuleDefinition } from '../rules/rule-types.js';

/** Where rule documentation lives; SARIF helpUri and the markdown report link here. */
export const RULE_DOCS_BASE_URL = 'https://github.com/mcprely/mcprely/blob/main/docs/rules/';

export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}${ruleId}.md`;
}

/** What a formatter may need besides the findings. */
export interface ReportContext {
  readonly toolVersion: string;
  /** Every rule that could have reported, for SARIF's rule table and for links. */
  readonly rules: readonly RuleDefinition[];
  /** ANSI colour (stylish only). */
  readonly color: boolean;
}

/** The findings that mean a file is not a usable manifest, described like rules so every format can list them. */
export const INPUT_RULES: readonly Pick<RuleDefinition, 'id' | 'description' | 'rationale' | 'severity' | 'fix'>[] = [
  { id: 'manifest-file', severity: 'error', description: 'The path names a readable UTF-8 text file within the size limit.', rationale: 'mcprely reads YAML or JSON manifests; directories, missing paths, binary files, non-UTF-8 text and files over 2 MiB are refused.', fix: 'Pass the manifest file itself, saved as UTF-8.' },
  { id: 'manifest-syntax', severity: 'error', description: 'The file is one well-formed YAML or JSON document.', rationale: 'Malformed YAML or JSON, duplicate keys, several documents, nesting deeper than 64 levels and alias bombs are refused before any rule runs.', fix: 'Correct the syntax at the place shown.' },
  { id: 'manifest-schema', severity: 'error', description: 'The manifest (or configuration) matches its JSON Schema.', rationale: 'Unknown fields, wrong types and values outside the allowed set would make every rule guess; schemas/manifest.schema.json is the contract.', fix: 'Follow the field, place and fix named in the message.' },
];
