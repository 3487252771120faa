import { INPUT_RULES, renderDescriptorPage, renderInputRuleDoc } from '../findings/input-rules.js';
import type { JudgeDeclaration } from '../judges/define-judge.js';
import { JUDGE_DECLARATIONS } from '../judges/judge-catalog.js';
import { SESSION_RULES } from '../judges/session-rules.js';
import type { JudgeBasis } from '../judges/judgement.js';
import { DRIFT_RULES } from '../probe/drift.js';
import { PROBE_CHECK_DECLARATIONS } from '../probe/probe-check-catalog.js';
import { SCENARIOS } from '../probe-client/scenarios.js';
import { renderRuleDoc } from '../rule-docs/rule-doc.js';
import { runRuleExamples } from '../rule-docs/rule-examples.js';
import { bundledRules, type RuleSet } from '../rules/load-rules.js';
import type { Citation } from '../rules/rule-types.js';
import type { CatalogEntry } from './catalog-entry.js';
import { type ProbeCheckFacts, probeCheckRuleId, renderProbeCheckPage } from './probe-check-page.js';
import { renderScenarioPage, SCENARIO_OUTCOMES } from './scenario-page.js';
import type { CheckStatus } from '../live/outcome.js';

/** A basis in words: a fact of the specification by its id, or a section of the lesson or the article by its name. */
function basisWords(basis: JudgeBasis | Citation): string {
  if ('fact' in basis) return `specification fact ${basis.fact}`;
  if ('lesson' in basis) return `lesson, section “${basis.lesson}”`;
  return `article, section “${basis.article}”`;
}

/** The probe's checks in the order its report lists them (their declarations: src/probe/probe-check-catalog.ts). */
export const PROBE_CHECKS_IN_ORDER: readonly ProbeCheckFacts[] = PROBE_CHECK_DECLARATIONS;

function judgeEntry(judge: JudgeDeclaration): CatalogEntry {
  const rule = SESSION_RULES.find((one) => one.id === judge.id);
  if (rule === undefined) throw new Error(`the session judge ${judge.id} has no rule`);
  return {
    kind: 'session-judge',
    id: judge.id,
    description: judge.description,
    party: judge.party,
    basis: basisWords(judge.rests),
    severity: rule.severity,
    page: () => renderDescriptorPage(rule, 'session'),
  };
}

/**
 * Every check a user sees, of every kind, in one shape: the lint rules of `ruleSet` (the bundled ones unless given:
 * the CLI passes the user's set, their own rules included), the input and drift rules, the session judges, the probe's
 * checks and the probe-client scenarios. Each is declared once where its kind lives; this only reads them.
 */
export function catalog(ruleSet: RuleSet = bundledRules()): readonly CatalogEntry[] {
  return [
    ...ruleSet.rules.map(
      (rule): CatalogEntry => ({
        kind: 'lint-rule',
        id: rule.definition.id,
        description: rule.definition.description,
        party: 'manifest',
        basis: rule.definition.spec.map(basisWords).join('; '),
        severity: rule.definition.severity,
        area: rule.definition.area,
        page: () => renderRuleDoc(rule, runRuleExamples(rule.definition, ruleSet)),
      }),
    ),
    ...INPUT_RULES.map(
      (rule): CatalogEntry => ({
        kind: 'input-rule',
        id: rule.id,
        description: rule.description,
        party: 'manifest',
        basis: 'what mcprely can read',
        severity: rule.severity,
        page: () => renderInputRuleDoc(rule),
      }),
    ),
    ...DRIFT_RULES.map(
      (rule): CatalogEntry => ({
        kind: 'drift-rule',
        id: rule.id,
        description: rule.description,
        party: 'server',
        basis: "the manifest's claims",
        severity: rule.severity,
        page: () => renderDescriptorPage(rule, 'drift'),
      }),
    ),
    ...(JUDGE_DECLARATIONS as readonly JudgeDeclaration[]).map(judgeEntry),
    ...PROBE_CHECKS_IN_ORDER.map(
      (check): CatalogEntry => ({
        kind: 'probe-check',
        id: probeCheckRuleId(check),
        description: check.title,
        party: 'server',
        basis: check.basis,
        severity: 'error',
        outcomes: check.outcomes,
        page: () => renderProbeCheckPage(check),
      }),
    ),
    ...SCENARIOS.map(
      (scenario): CatalogEntry => ({
        kind: 'client-scenario',
        id: scenario.name,
        description: scenario.exercises,
        party: 'client',
        basis: `the judges ${scenario.decisive.join(', ')}`,
        outcomes: Object.keys(SCENARIO_OUTCOMES) as CheckStatus[],
        page: () => renderScenarioPage(scenario),
      }),
    ),
  ];
}
