import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledRules } from '../../src/rules/load-rules.js';
import { lintText } from '../helpers/lint-text.js';
import type { Assertion } from '../../src/rules/rule-types.js';

type Node = { $ref?: string; properties?: Record<string, Node>; default?: unknown; minimum?: number; description?: string };
const schema = JSON.parse(readFileSync('schemas/manifest.schema.json', 'utf8')) as { $defs: Record<string, Node> };
const resolve = (node: Node | undefined): Node | undefined =>
  node?.$ref === undefined ? node : resolve(schema.$defs[node.$ref.replace('#/$defs/', '')]);

/** The schema node of a dotted field of an operation (its policy) or of the server. */
function fieldSchema(given: string, field: string): Node | undefined {
  const [head, ...rest] = field.split('.') as [string, ...string[]];
  // An operation's own fields (name, method, direction, …) first, then its policy.
  let node =
    given === 'server'
      ? resolve(schema.$defs['server']?.properties?.[head])
      : resolve(schema.$defs['operation']?.properties?.[head] ?? resolve(schema.$defs['policy'])?.properties?.[head]);
  for (const segment of rest) node = resolve(node?.properties?.[segment]);
  return node;
}

/** Each plain field a rule asserts, with what the rule does when the field is missing. */
interface Assumption {
  rule: string;
  given: string;
  field: string;
  missing: 'passes' | 'fails';
  assumes?: unknown;
  /** The values the rule accepts, where it names them (enum; truthy accepts true). */
  accepts?: readonly unknown[];
}

function assumptions(): Assumption[] {
  const out: Assumption[] = [];
  for (const { definition } of bundledRules().rules) {
    const checks = (definition.checks ?? (definition.then === undefined ? [] : [{ then: definition.then }])) as readonly {
      when?: unknown;
      then: unknown;
    }[];
    const assertionsOf = (check: { then: unknown }) => (Array.isArray(check.then) ? check.then : [check.then]) as Assertion[];
    for (const check of checks) {
      const assertions = assertionsOf(check);
      // A `defined` beside an enum that allows a missing field refuses the missing field with its own words
      // ("nothing says …"), while the enum words an explicit value: together they assume nothing. Beside means
      // in the same check, or in another check of the rule that applies whenever this one does (the same
      // conditions), as when the missing field and the explicit value are reported at different severities.
      const askedFor = new Set(
        checks
          .filter((other) => other === check || JSON.stringify(other.when) === JSON.stringify(check.when))
          .flatMap(assertionsOf)
          .filter((assertion) => assertion.function === 'defined')
          .map((assertion) => assertion.field),
      );
      for (const assertion of assertions) {
        if (assertion.field.startsWith('$') || definition.given === 'manifest') continue;
        const options = (assertion.functionOptions ?? {}) as { values?: unknown[]; allowMissing?: boolean };
        const fn = assertion.function;
        const allowsMissing = options.allowMissing === true && !askedFor.has(assertion.field);
        if (fn === 'enum')
          out.push({
            rule: definition.id,
            given: definition.given,
            field: assertion.field,
            missing: allowsMissing ? 'passes' : 'fails',
            accepts: options.values ?? [],
            ...(allowsMissing && options.values?.length === 1 ? { assumes: options.values[0] } : {}),
          });
        else if (fn === 'falsy')
          out.push({ rule: definition.id, given: definition.given, field: assertion.field, missing: 'passes', assumes: false });
        else if (fn === 'truthy')
          out.push({ rule: definition.id, given: definition.given, field: assertion.field, missing: 'fails', accepts: [true] });
        else if (fn === 'defined') out.push({ rule: definition.id, given: definition.given, field: assertion.field, missing: 'fails' });
      }
    }
  }
  return out;
}

/**
 * Fields a rule lets pass when missing for another reason than a default: the field has none by design.
 * sideEffect must be declared (retry-side-effect-declared asks for it); whether a disconnect cancels depends
 * on the revision (the fact disconnect-is-cancellation), so no one default can hold.
 */
const NO_DEFAULT_BY_DESIGN = new Set(['sideEffect', 'cancellation.disconnectIsCancellation']);

describe('the schema and the rules agree', () => {
  const found = assumptions().filter((entry) => !NO_DEFAULT_BY_DESIGN.has(entry.field));

  it('finds the assumptions to compare', () => {
    expect(found.length).toBeGreaterThan(30);
  });

  it('a field a rule treats as set when missing has that value as its schema default', () => {
    const wrong = found
      .filter((entry) => entry.assumes !== undefined && fieldSchema(entry.given, entry.field)?.default !== entry.assumes)
      .map(
        (entry) =>
          `${entry.rule}: ${entry.field} missing passes as ${String(entry.assumes)}, schema default ${String(fieldSchema(entry.given, entry.field)?.default)}`,
      );
    expect(wrong).toEqual([]);
  });

  it('a field a rule refuses when missing has no schema default the rule would accept', () => {
    const wrong = found
      .filter((entry) => entry.missing === 'fails')
      .filter((entry) => {
        const fallback = fieldSchema(entry.given, entry.field)?.default;
        if (fallback === undefined) return false;
        // A default the rule refuses is agreement (the missing field is that default, which is wrong here).
        return entry.accepts === undefined || entry.accepts.includes(fallback);
      })
      .map(
        (entry) =>
          `${entry.rule}: ${entry.field} missing fails, but the schema's default ${String(fieldSchema(entry.given, entry.field)?.default)} passes`,
      );
    expect(wrong).toEqual([]);
  });

  it('the progress buffer capacity is bounded as the rules say: at least 2 (a progress event and the final response)', () => {
    expect(fieldSchema('operation', 'flowControl.progressBuffer.capacity')?.minimum).toBe(2);
    const one = lintText(
      'mcprely: 1\nspecVersion: "2026-07-28"\nserver: { name: s, transports: [stdio] }\n' +
        'operations:\n  - name: a\n    method: tools/call\n    flowControl: { progressBuffer: { capacity: 1 } }\n',
    );
    expect(one.map((finding) => [finding.ruleId, finding.range?.start.line])).toEqual([['manifest-schema', 7]]);
    expect(one[0]!.message).toMatch(/at least 2|2 or more|>= 2|minimum/);
  });
});
