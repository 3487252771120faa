import type { Finding } from './finding.js';
import type { RuleDescriptor } from './rule-descriptor.js';

/** An input rule: what every rule says of itself, with its page's words (docs/rules/<id>.md is rendered from them). */
interface InputRule extends RuleDescriptor {
  readonly docPage: string;
  readonly helpMarkdown: string;
}

/** The findings that mean a file could not be used as what it was given as: no rule ran on it (exit code 2). */
export const INPUT_RULES: readonly InputRule[] = [
  {
    id: 'manifest-file',
    severity: 'error',
    description: 'The path names a readable UTF-8 text file within the size limit.',
    rationale:
      'mcprely reads YAML or JSON manifests; directories, missing paths, binary files, non-UTF-8 text and files over 2 MiB are refused.',
    fix: 'Pass the manifest file itself, saved as UTF-8.',
    tags: ['input'],
    docPage: 'docs/rules/manifest-file.md',
    helpMarkdown: inputHelp(
      'The path names a readable UTF-8 text file within the size limit.',
      [
        'A manifest is read as bytes, then decoded as UTF-8. mcprely refuses, before any rule runs: a path where no file',
        'exists; a directory given where a file is expected (name the files, or give the folder to `lint`, which searches',
        'it); a pipe, socket or device; a file the user cannot read; a file over 2 MiB (2 097 152 bytes, counted as read,',
        'not as the file system reports); bytes that are not UTF-8, or that hold a NUL character (a binary file).',
        'Every other file given is still checked; the run exits with code 2.',
      ],
      'Pass the manifest file itself, saved as UTF-8; split a manifest over 2 MiB into several.',
      [
        'missing.yaml: error: No file exists at this path. Fix: Check the path, or run mcprely init to create a manifest [manifest-file]',
        'huge.yaml: error: The file is over the 2097152-byte limit for a manifest. Fix: Split it into several manifests [manifest-file]',
      ],
    ),
  },
  {
    id: 'manifest-syntax',
    severity: 'error',
    description: 'The file is one well-formed YAML or JSON document.',
    rationale:
      'Malformed YAML or JSON, duplicate keys, several documents, nesting deeper than 64 levels and alias bombs are refused before any rule runs.',
    fix: 'Correct the syntax at the place shown.',
    tags: ['input'],
    docPage: 'docs/rules/manifest-syntax.md',
    helpMarkdown: inputHelp(
      'The file is one well-formed YAML or JSON document.',
      [
        'A `.json` file is read as strict JSON; anything else as YAML 1.2. Refused, at the line and column of the problem:',
        'malformed YAML or JSON; a key that appears twice in one mapping (the second would silently win); more than one',
        'YAML document in the file; mappings and lists nested more than 64 levels deep; aliases that expand to more than',
        '50 000 nodes or 4 MiB of text (an alias bomb); numbers that cannot be held exactly.',
      ],
      'Correct the syntax at the place shown; keep one of two duplicate keys.',
      [
        'syntax.yaml:3:9: error: The YAML is malformed: the list "[" opened here is never closed. ' +
          'Fix: Close it on the same line or remove it [manifest-syntax]',
        'dup.yaml:2:1: error: The key "a" appears twice in this mapping (first at line 1, column 1). Fix: Keep one of them [manifest-syntax]',
      ],
    ),
  },
  {
    id: 'manifest-schema',
    severity: 'error',
    description: 'The manifest (or configuration) matches its JSON Schema.',
    rationale:
      'Unknown fields, wrong types and values outside the allowed set would make every rule guess; schemas/manifest.schema.json is the contract.',
    fix: 'Follow the field, place and fix named in the message.',
    tags: ['input'],
    docPage: 'docs/rules/manifest-schema.md',
    helpMarkdown: inputHelp(
      'The manifest (or configuration) matches its JSON Schema.',
      [
        'Unknown fields, wrong types and values outside the allowed set would make every rule guess, so a manifest that',
        'does not match `schemas/manifest.schema.json` (a configuration file: `schemas/config.schema.json`) is reported',
        'field by field and no rule runs on it. Each message names the field, the value found, what is allowed and, for a',
        'misspelt key or value, the closest allowed one. Editors that read the `$schema` comment at the top of a',
        'manifest complete and check the fields as you type.',
      ],
      'Follow the field, place and fix named in the message.',
      [
        'schema.yaml:7:17: error: operations[0].sideEffect is "mutaton", which is not one of none, idempotent, mutation (did you mean "mutation"?). ' +
          'Fix: Use mutation [manifest-schema]',
        'f.json:1:1: error: The manifest is missing the required field "server". Fix: Add server [manifest-schema]',
      ],
    ),
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
    docPage: 'docs/rules/fixture-file.md',
    helpMarkdown: inputHelp(
      'A fixture file is readable, matches schemas/fixture.schema.json, agrees with its manifest and can be run.',
      [
        '`mcprely verify` runs fixture files as written. A fixture file that cannot be read or parsed, that does not match',
        '`schemas/fixture.schema.json`, that names an operation its manifest does not have, contradicts the policy that',
        'manifest declares, or exceeds the limits on derived work (16 race connections, 20 000 steps) is reported at its',
        'place; the other fixtures still run, and the run exits with code 2.',
      ],
      'Regenerate the fixtures with `mcprely fixtures`, or correct the place shown.',
      [],
    ),
  },
  {
    id: 'trace-file',
    severity: 'error',
    description: 'A session trace is readable JSON Lines that match schemas/trace.schema.json.',
    rationale:
      'audit judges a trace as recorded by mcprely proxy --record: a header line, then one record per message. A trace that cannot be ' +
      'read, or a line that is not such a record, is reported at its line and column; no judge runs on it, and the other traces are still judged.',
    fix: 'Record the session again with mcprely proxy --record, or correct the line shown.',
    tags: ['input'],
    docPage: 'docs/rules/trace-file.md',
    helpMarkdown: inputHelp(
      'A session trace is readable JSON Lines that match schemas/trace.schema.json.',
      [
        '`mcprely audit` judges a trace as `mcprely proxy --record` writes it: a header line',
        '(`{"mcprelyTrace": 1, "transport": "stdio" | "http", "started": "<ISO time>"}`), then one record per message',
        '(`{"at": <ms>, "from": "client" | "server", "message": <JSON-RPC>}`, `"text"` for a line that was not JSON), in the',
        'order they passed, and an `{"at": <ms>, "end": "<why>"}` record when the recording stopped. A trace that cannot be',
        'read, a line that is not JSON or a record out of order is reported at its line and column (up to 20 per trace); no',
        'judge runs on that trace, the others are still judged, and the run exits with code 2.',
      ],
      'Record the session again with `mcprely proxy --record`, or correct the line shown.',
      [],
    ),
  },
  {
    id: 'config-file',
    severity: 'error',
    description:
      'The configuration file (mcprely.config.yaml) is well-formed, matches schemas/config.schema.json and every glob in it can be used.',
    rationale:
      'A configuration that cannot be read, names an unknown field or rule, or holds a glob that would not match as written ' +
      '(an unclosed [ or {, a backwards range) would silently lint with other settings than the ones meant; the run stops (exit 2).',
    fix: 'Correct the configuration at the place shown.',
    tags: ['input'],
    docPage: 'docs/rules/config-file.md',
    helpMarkdown: inputHelp(
      'The configuration file (mcprely.config.yaml) is well-formed, matches schemas/config.schema.json and every glob in it can be used.',
      [
        'The configuration is read before any manifest. A file that cannot be parsed, does not match',
        '`schemas/config.schema.json`, sets a rule that does not exist, or holds an `overrides[].files` glob the matcher',
        'cannot take as written (a `[` set or a `{` group never closed, a range written backwards such as `[z-a]`, a',
        'trailing lone `\\`, over 1024 characters, braces standing for over 256 patterns) is reported at its line and',
        'column, and the run stops with exit 2 before any manifest is linted with other settings than the ones meant.',
      ],
      'Correct the configuration at the place shown; write `\\[` for a literal `[` in a glob.',
      [
        'mcprely.config.yaml:2:13: error: The glob cannot be used: the set opened by "[" at character 1 is never closed; ' +
          'write \\[ for a literal [. Fix: Correct the glob as the message says, or split it into several [config-file]',
      ],
    ),
  },
  {
    id: 'rule-file',
    severity: 'error',
    description: "A rule file in the configuration's ruleFolders is readable, matches schemas/rule.schema.json and compiles.",
    rationale:
      "Your own rules are data in the bundled rules' format; one that cannot be parsed, does not match the schema, names an " +
      'unknown field, function or fact, or reuses a rule id is reported at its place, and the run stops (exit 2).',
    fix: 'Correct the rule file at the place shown.',
    tags: ['input'],
    docPage: 'docs/rules/rule-file.md',
    helpMarkdown: inputHelp(
      "A rule file in the configuration's ruleFolders is readable, matches schemas/rule.schema.json and compiles.",
      [
        'The configuration may name folders of your own rules (`ruleFolders`, relative to the configuration file). Each',
        '`.yaml`, `.yml` or `.json` file in them is one rule in the format of `rules/*.yaml` (`schemas/rule.schema.json`),',
        'using the generic functions and the bundled rule functions: a rule file is data, never code. A file that cannot be',
        'parsed, does not match the schema, names an unknown field, function or revision fact, or reuses a rule id stops the',
        'run with exit 2, at its place, before any manifest is linted with half a rule set.',
      ],
      'Correct the rule file at the place shown; give each rule an id of its own.',
      [],
    ),
  },
];

/** An input rule's help: what it checks, why, the fix and what its messages look like. */
function inputHelp(description: string, why: readonly string[], fix: string, examples: readonly string[]): string {
  return [
    description,
    '',
    `**Why.** ${why.join(' ')}`,
    '',
    `**Fix.** ${fix}`,
    ...(examples.length === 0 ? [] : ['', 'Examples of what mcprely reports:', '', '```text', ...examples, '```']),
  ].join('\n');
}

/** The page of an input rule, docs/rules/<id>.md (and what `mcprely rules <id>` prints). */
export function renderInputRuleDoc(rule: InputRule): string {
  return renderDescriptorPage(rule, 'input');
}

/** The page of a rule described in code (input and drift rules): its title, area and severity, then its help. */
export function renderDescriptorPage(rule: RuleDescriptor & { readonly helpMarkdown: string }, area: string): string {
  return `# ${rule.id}\n\n**Area:** ${area} · **Severity:** ${rule.severity} · **Revisions:** all\n\n${rule.helpMarkdown}\n`;
}

export const INPUT_RULE_IDS: ReadonlySet<string> = new Set(INPUT_RULES.map((rule) => rule.id));

export function isInputFinding(finding: Finding): boolean {
  return INPUT_RULE_IDS.has(finding.ruleId);
}
