import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import { validateConfig } from '../generated/validate-config.js';
import { closestMatch } from '../document/did-you-mean.js';
import { parseDocumentBytes } from '../document/parse-document.js';
import { makeProblem, type DocumentProblem } from '../document/problem.js';
import { schemaLookup, type SchemaNode } from '../document/schema-lookup.js';
import { locate, type SourceNode } from '../document/source-map.js';
import { validateAgainst } from '../document/validate-against.js';
import type { Config } from './config.js';
import { checkGlob, GlobError } from './glob.js';

const configLookup = schemaLookup(configSchema as SchemaNode, 'the configuration');

export type ConfigLoad =
  | { readonly ok: true; readonly config: Config }
  | { readonly ok: false; readonly text: string; readonly problems: readonly DocumentProblem[] };

/** Parses and checks a configuration file: schema, then that every rule id it names exists. Pure. */
export function loadConfig(
  file: string,
  bytes: Uint8Array,
  knownRules: ReadonlySet<string> | ((config: Config) => ReadonlySet<string>),
): ConfigLoad {
  const parsed = parseDocumentBytes(file, bytes);
  if (!parsed.ok) return { ok: false, text: parsed.text, problems: parsed.problems };
  const { value, source } = parsed.document;
  const schemaProblems = validateAgainst(validateConfig, configLookup, value, source);
  if (schemaProblems.length > 0) return { ok: false, text: parsed.text, problems: schemaProblems };
  const config = value as Config;
  // The user's rule folders (read by the caller) add ids the configuration may set.
  const known = typeof knownRules === 'function' ? knownRules(config) : knownRules;
  const problems = [
    ...badGlobs(config, source),
    ...unknownRules(config.rules, ['rules'], source, known),
    ...(config.overrides ?? []).flatMap((override, index) => unknownRules(override.rules, ['overrides', index, 'rules'], source, known)),
  ];
  return problems.length > 0 ? { ok: false, text: parsed.text, problems } : { ok: true, config };
}

/** Globs the matcher refuses (an unclosed set or brace, a backwards range, too long, braces for too many patterns), at their place. */
function badGlobs(config: Config, source: SourceNode): DocumentProblem[] {
  return (config.overrides ?? []).flatMap((override, index) =>
    (override.files as readonly string[]).flatMap((glob, position) => {
      try {
        checkGlob(glob);
        return [];
      } catch (error) {
        if (!(error instanceof GlobError)) throw error;
        const path = ['overrides', index, 'files', position];
        const place = locate(source, path, 'value');
        return [
          makeProblem('schema', {
            messageId: 'bad-glob',
            template: 'The glob cannot be used: {reason}',
            data: { reason: error.message },
            fix: 'correct the glob as the message says, or split it into several',
            path,
            start: place.start,
            end: place.end,
          }),
        ];
      }
    }),
  );
}

function unknownRules(
  rules: Config['rules'],
  path: readonly (string | number)[],
  source: SourceNode,
  knownRules: ReadonlySet<string>,
): DocumentProblem[] {
  return Object.keys(rules ?? {})
    .filter((id) => !knownRules.has(id))
    .map((id) => {
      const suggestion = closestMatch(id, knownRules);
      const place = locate(source, [...path, id], 'key');
      return makeProblem('schema', {
        messageId: 'unknown-rule',
        template: 'Unknown rule "{rule}"{hint}',
        data: { rule: id, hint: suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)` },
        fix: suggestion === undefined ? 'use a rule id that mcprely rules lists' : `use ${suggestion}`,
        path: [...path, id],
        start: place.start,
        end: place.end,
      });
    });
}
