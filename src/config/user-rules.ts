import ruleSchema from '../../schemas/rule.schema.json' with { type: 'json' };
import { parseDocumentBytes } from '../document/parse-document.js';
import { makeProblem, type DocumentProblem } from '../document/problem.js';
import { schemaLookup, type SchemaNode } from '../document/schema-lookup.js';
import { locate } from '../document/source-map.js';
import { validateAgainst } from '../document/validate-against.js';
import { validateRule } from '../generated/validate-rule.js';
import { compileRule } from '../rules/compile-rule.js';
import type { CompiledRule } from '../rules/compiled-rule.js';
import type { RuleSet } from '../rules/load-rules.js';
import { RULE_FUNCTIONS } from '../rules/rule-functions/index.js';
import type { RuleDefinition } from '../rules/rule-types.js';

const ruleLookup = schemaLookup(ruleSchema as SchemaNode, 'the rule');

/** One rule file the user's configuration named, with what is wrong with it (placed in its text). */
export interface RuleFileProblems {
  readonly file: string;
  readonly text: string;
  readonly problems: readonly DocumentProblem[];
}

/**
 * The user's rule files, parsed, checked against schemas/rule.schema.json and compiled with the bundled
 * functions only (a rule file is data; no code is ever loaded from it), added to the bundled rules. A file
 * that is malformed, does not match the schema, names an unknown function, field or fact, or reuses an id is
 * reported at its place; then no rule of the user's is used. Pure: the caller reads the files.
 */
export function withUserRules(
  base: RuleSet,
  files: readonly { readonly file: string; readonly bytes: Uint8Array }[],
): { readonly ok: true; readonly ruleSet: RuleSet } | { readonly ok: false; readonly files: readonly RuleFileProblems[] } {
  const compiled: CompiledRule[] = [];
  const failed: RuleFileProblems[] = [];
  const seen = new Map<string, string>();
  for (const { file, bytes } of files) {
    const parsed = parseDocumentBytes(file, bytes);
    if (!parsed.ok) {
      failed.push({ file, text: parsed.text, problems: parsed.problems });
      continue;
    }
    const { value, source } = parsed.document;
    const problems = validateAgainst(validateRule, ruleLookup, value, source);
    if (problems.length > 0) {
      failed.push({ file, text: parsed.text, problems });
      continue;
    }
    const definition = value as RuleDefinition;
    const at = (path: readonly (string | number)[]) => locate(source, path, 'value');
    const earlier = base.ids.has(definition.id) ? 'a bundled rule' : seen.get(definition.id);
    if (earlier !== undefined) {
      const place = at(['id']);
      failed.push({
        file,
        text: parsed.text,
        problems: [
          makeProblem('schema', {
            messageId: 'duplicate-rule-id',
            template: 'The rule id "{id}" is already taken by {earlier}',
            data: { id: definition.id, earlier },
            fix: 'give the rule an id of its own (a prefix of your team or project keeps them apart)',
            path: ['id'],
            start: place.start,
            end: place.end,
          }),
        ],
      });
      continue;
    }
    seen.set(definition.id, file);
    try {
      compiled.push(compileRule(definition, RULE_FUNCTIONS));
    } catch (error) {
      const place = at([]);
      failed.push({
        file,
        text: parsed.text,
        problems: [
          makeProblem('schema', {
            messageId: 'rule-does-not-compile',
            template: 'The rule cannot be used: {reason}',
            data: { reason: (error as Error).message },
            fix: 'use the fields, functions and facts that mcprely rules and schemas/rule.schema.json name',
            start: place.start,
            end: place.start + 1,
          }),
        ],
      });
    }
  }
  if (failed.length > 0) return { ok: false, files: failed };
  const rules = [...base.rules, ...compiled];
  const byId = new Map(rules.map((rule) => [rule.definition.id, rule]));
  return { ok: true, ruleSet: { rules, byId, ids: new Set(byId.keys()) } };
}
