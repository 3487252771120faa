import type { Finding } from './finding.js';
import type { RuleDescriptor } from './rule-descriptor.js';

/** The findings that mean a file could not be used as what it was given as: no rule ran on it (exit code 2). */
export const INPUT_RULES: readonly RuleDescriptor[] = [
  {
    id: 'manifest-file',
    severity: 'error',
    description: 'The path names a readable UTF-8 text file within the size limit.',
    rationale:
      'mcprely reads YAML or JSON manifests; directories, missing paths, binary files, non-UTF-8 text and files over 2 MiB are refused.',
    fix: 'Pass the manifest file itself, saved as UTF-8.',
    tags: ['input'],
  },
  {
    id: 'manifest-syntax',
    severity: 'error',
    description: 'The file is one well-formed YAML or JSON document.',
    rationale:
      'Malformed YAML or JSON, duplicate keys, several documents, nesting deeper than 64 levels and alias bombs are refused before any rule runs.',
    fix: 'Correct the syntax at the place shown.',
    tags: ['input'],
  },
  {
    id: 'manifest-schema',
    severity: 'error',
    description: 'The manifest (or configuration) matches its JSON Schema.',
    rationale:
      'Unknown fields, wrong types and values outside the allowed set would make every rule guess; schemas/manifest.schema.json is the contract.',
    fix: 'Follow the field, place and fix named in the message.',
    tags: ['input'],
  },
  {
    id: 'fixture-file',
    severity: 'error',
    description: 'A fixture file is readable, matches schemas/fixture.schema.json, agrees with its manifest and can be run.',
    rationale:
      'verify runs fixture files as written; one that cannot be parsed, names an unknown step or operation, contradicts the manifest ' +
      'it names or cannot run is reported at its place, and the other fixtures still run.',
    fix: 'Regenerate the fixtures with mcprely fixtures, or correct the place shown.',
    tags: ['input'],
  },
];

export const INPUT_RULE_IDS: ReadonlySet<string> = new Set(INPUT_RULES.map((rule) => rule.id));

export function isInputFinding(finding: Finding): boolean {
  return INPUT_RULE_IDS.has(finding.ruleId);
}
