import { describe, expect, it } from 'vitest';
import { INPUT_RULES, renderDescriptorPage, renderInputRuleDoc } from '../../src/findings/input-rules.js';
import { DRIFT_RULES } from '../../src/probe/drift.js';
import { SESSION_RULES } from '../../src/judges/session-rules.js';
import { PROBE_CHECKS_IN_ORDER } from '../../src/catalog/catalog.js';
import { probeCheckRuleId, renderProbeCheckPage } from '../../src/catalog/probe-check-page.js';
import { renderScenarioPage } from '../../src/catalog/scenario-page.js';
import { SCENARIOS } from '../../src/probe-client/scenarios.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import { renderRuleDoc } from '../../src/rule-docs/rule-doc.js';
import { runRuleExamples } from '../../src/rule-docs/rule-examples.js';

const ruleSet = bundledRules();

// docs/rules/<id>.md is the rule's page as `mcprely rules <id>` prints it; a rule without an up-to-date
// page fails here. After changing a rule: npx vitest run test/rules/rule-docs.test.ts -u
describe('rule doc pages', () => {
  it.each(ruleSet.rules.map((rule) => [rule.definition.id, rule] as const))('docs/rules/%s.md is current', async (id, rule) => {
    await expect(renderRuleDoc(rule, runRuleExamples(rule.definition, ruleSet))).toMatchFileSnapshot(`../../docs/rules/${id}.md`);
  });
});

describe('lint-only rules', () => {
  const lintOnly = ruleSet.rules.filter((rule) => rule.definition.verification !== undefined);
  it.each(lintOnly.map((rule) => [rule.definition.id, rule] as const))('the page of %s says why verify cannot show it', (_, rule) => {
    const page = renderRuleDoc(rule, runRuleExamples(rule.definition, ruleSet));
    const { lintOnly: always, whenUnset } = rule.definition.verification!;
    if (always !== undefined) expect(page).toContain(`## Verification\n\nLint-only because ${always} `);
    else expect(page).toContain(`A finding about a field left unset is lint-only because ${whenUnset} `);
  });
  it('a rule that verify checks has no such section', () => {
    const verified = ruleSet.byId.get('retry-backoff')!;
    expect(renderRuleDoc(verified, runRuleExamples(verified.definition, ruleSet))).not.toContain('## Verification');
  });
});

describe('input rule pages', () => {
  it.each(INPUT_RULES.map((rule) => [rule.id, rule] as const))('docs/rules/%s.md is current', async (id, rule) => {
    expect(rule.docPage).toBe(`docs/rules/${id}.md`);
    await expect(renderInputRuleDoc(rule)).toMatchFileSnapshot(`../../docs/rules/${id}.md`);
  });
});

describe('drift rule pages', () => {
  it.each(DRIFT_RULES.map((rule) => [rule.id, rule] as const))('docs/rules/%s.md is current', async (id, rule) => {
    expect(rule.docPage).toBe(`docs/rules/${id}.md`);
    await expect(renderDescriptorPage(rule, 'drift')).toMatchFileSnapshot(`../../docs/rules/${id}.md`);
  });
});

describe('session rule pages', () => {
  it.each(SESSION_RULES.map((rule) => [rule.id, rule] as const))('docs/rules/%s.md is current', async (id, rule) => {
    expect(rule.docPage).toBe(`docs/rules/${id}.md`);
    await expect(renderDescriptorPage(rule, 'session')).toMatchFileSnapshot(`../../docs/rules/${id}.md`);
  });
});

describe('probe check pages', () => {
  it.each(PROBE_CHECKS_IN_ORDER.map((check) => [probeCheckRuleId(check), check] as const))(
    'docs/rules/%s.md is current',
    async (id, check) => {
      await expect(renderProbeCheckPage(check)).toMatchFileSnapshot(`../../docs/rules/${id}.md`);
    },
  );
});

describe('probe-client scenario pages', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('docs/rules/%s.md is current', async (name, scenario) => {
    await expect(renderScenarioPage(scenario)).toMatchFileSnapshot(`../../docs/rules/${name}.md`);
  });
});
