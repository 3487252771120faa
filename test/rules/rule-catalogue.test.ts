import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/json/canonical-json.js';
import { BUNDLED_DEFINITIONS } from '../../src/rules/bundled-definitions.js';
import { BUNDLED_RULE_HEADS, BUNDLED_RULES_DIGEST } from '../../src/rules/bundled-rule-heads.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { sha1Hex } from '../../src/text/sha1.js';
import { runRuleExamples } from '../../src/rule-docs/rule-examples.js';
import { RULE_AREAS } from '../../src/rules/rule-types.js';
import { FACT_IDS } from '../../src/spec/revision-facts.js';
import ruleSchema from '../../schemas/rule.schema.json' with { type: 'json' };

const ruleSet = bundledRules();
const definitions = ruleSet.rules.map((rule) => rule.definition);

describe('the rule catalogue', () => {
  it('bundles exactly the files in rules/, each with its id as file name', () => {
    const files = readdirSync('rules')
      .filter((file) => file.endsWith('.yaml'))
      .map((file) => file.replace(/\.yaml$/, ''))
      .sort();
    expect(definitions.map((rule) => rule.id).sort()).toEqual(files);
  });

  it('has a head for each bundled rule (id, severities) and a digest of them all, as the lint cache keys on them', () => {
    expect(BUNDLED_RULE_HEADS).toEqual(
      BUNDLED_DEFINITIONS.map(({ id, severity, recommended }) =>
        recommended === undefined ? { id, severity } : { id, severity, recommended },
      ),
    );
    expect(BUNDLED_RULES_DIGEST).toBe(sha1Hex(canonicalJson(BUNDLED_DEFINITIONS)));
  });

  it('covers every area of the design with at least two rules, and more than forty in all', () => {
    for (const area of RULE_AREAS.filter((name) => name !== 'manifest')) {
      expect(definitions.filter((rule) => rule.area === area).length, area).toBeGreaterThanOrEqual(2);
    }
    expect(definitions.length).toBeGreaterThan(40);
  });

  it('cites a revision fact, the lesson or the article for every rule, never a file the user does not have', () => {
    for (const rule of definitions) {
      expect(rule.spec.length, rule.id).toBeGreaterThan(0);
      for (const citation of rule.spec) {
        if ('fact' in citation) expect(FACT_IDS, rule.id).toContain(citation.fact);
        else expect(JSON.stringify(citation), rule.id).not.toMatch(/\.(txt|md|mdx)\b|seed-|reference-semantics/);
      }
    }
  });

  it('lists in the rule schema exactly the facts of the revision facts table', () => {
    expect([...ruleSchema.$defs.fact.enum].sort()).toEqual([...FACT_IDS].sort());
  });

  it('declares lint-only exactly the rules no fixture can show, each with a reason that reads after "lint-only because"', () => {
    const declaring = (kind: 'lintOnly' | 'whenUnset') => definitions.filter((rule) => rule.verification?.[kind] !== undefined);
    expect(
      declaring('lintOnly')
        .map((rule) => rule.id)
        .sort(),
    ).toEqual([
      'idem-external-effect',
      'progress-interval-order',
      'progress-token-unique',
      'retry-hints-not-contracts',
      'rounds-not-in-revision',
      'rounds-request-state-ttl',
      'task-augmentable-method',
      'task-poll-interval-floor',
    ]);
    expect(
      declaring('whenUnset')
        .map((rule) => rule.id)
        .sort(),
    ).toEqual(['cancel-http-signal', 'cancel-invalid-ignored', 'flow-sse-headers', 'retry-side-effect-declared']);
    for (const rule of definitions)
      for (const reason of [rule.verification?.lintOnly, rule.verification?.whenUnset].filter((text) => text !== undefined)) {
        expect(reason, rule.id).toMatch(/^[a-z]/);
        expect(reason, rule.id).toMatch(/\.$/);
        expect(reason.length, rule.id).toBeLessThan(400);
      }
  });

  it('rejects a rule that does not match the rule schema, naming it', async () => {
    const { checkedRuleSet } = await import('../../src/rules/checked-rule-set.js');
    const broken = { ...definitions[0]!, id: 'broken-rule', severity: 'fatal' };
    expect(() => checkedRuleSet([broken])).toThrow(/rule broken-rule does not match schemas\/rule\.schema\.json/);
    const noFunction = { ...definitions[0]!, id: 'no-function', then: undefined, checks: undefined, function: 'does-not-exist' };
    expect(() => checkedRuleSet([JSON.parse(JSON.stringify(noFunction))])).toThrow(/no rule function named does-not-exist/);
    // Every bundled rule file matches the schema (the build refuses one that does not).
    expect(() => checkedRuleSet(definitions)).not.toThrow();
  });
});

describe.each(definitions.map((rule) => [rule.id, rule] as const))('%s: its doc examples behave as labelled', (id, rule) => {
  const results = runRuleExamples(rule, ruleSet);
  it('reports the failing example', () => {
    expect(results.failing.length).toBeGreaterThan(0);
    expect(results.failing.every((finding) => finding.ruleId === id)).toBe(true);
  });
  it('reports nothing for the passing example', () => {
    expect(results.passing).toEqual([]);
  });
});
