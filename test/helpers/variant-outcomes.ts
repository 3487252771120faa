import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import type { Fixture } from '../../src/fixtures/fixture-types.js';
import { lintLoadedManifest } from '../../src/lint/lint-file.js';
import { loadManifest } from '../../src/manifest/load.js';
import { bundledRules } from '../../src/rules/load-rules.js';
import type { FixtureRun } from '../../src/simulator/fixture-run.js';
import { runFixture } from '../../src/simulator/run-fixture.js';
import type { Severity } from '../../src/findings/finding.js';
import { lintOnlyReasonOf, verificationsOf } from '../../src/findings/rule-verification.js';
import type { PolicyVariant } from './schema-variants.js';

/** What lint and verify say of one manifest value: the rules reporting errors and warnings, and the failing fixtures. */
export interface VariantOutcome {
  readonly schemaProblems: readonly string[];
  readonly errors: readonly string[];
  /** The rules reporting an error some fixture must show: every error but the lint-only ones (`verification`). */
  readonly verifiable: readonly string[];
  readonly warnings: readonly string[];
  readonly failures: readonly { readonly id: string; readonly details: readonly string[] }[];
  readonly runs: readonly FixtureRun[];
}

const ruleSet = bundledRules();
const severities = new Map<string, Severity>(ruleSet.rules.map((rule) => [rule.definition.id, rule.definition.severity]));
/** Fixture runs are deterministic: one identical fixture is run once for all variants. */
const verifications = verificationsOf(ruleSet.rules);
const runCache = new Map<string, Promise<FixtureRun>>();

export async function outcomeOf(manifest: Record<string, unknown>, file = 'variant.json'): Promise<VariantOutcome> {
  const loaded = loadManifest(file, new TextEncoder().encode(JSON.stringify(manifest)));
  if (!loaded.ok)
    return {
      schemaProblems: loaded.problems.map((problem) => problem.message),
      errors: [],
      verifiable: [],
      warnings: [],
      failures: [],
      runs: [],
    };
  const findings = lintLoadedManifest(loaded, { ruleSet, severities });
  const rules = (severity: Severity) =>
    [...new Set(findings.filter((finding) => finding.severity === severity).map((finding) => finding.ruleId))].sort();
  const runs = await Promise.all(generateFixtures(loaded).map(run));
  return {
    schemaProblems: [],
    errors: rules('error'),
    verifiable: [
      ...new Set(
        findings
          .filter((finding) => finding.severity === 'error' && lintOnlyReasonOf(finding, verifications) === undefined)
          .map((finding) => finding.ruleId),
      ),
    ].sort(),
    warnings: rules('warn'),
    failures: runs
      .filter((one) => !one.passed)
      .map((one) => ({ id: one.fixture.id, details: one.results.filter((result) => !result.passed).map((result) => result.detail) })),
    runs,
  };
}

function run(fixture: Fixture): Promise<FixtureRun> {
  const key = JSON.stringify(fixture);
  let cached = runCache.get(key);
  if (cached === undefined) {
    cached = runFixture(fixture);
    runCache.set(key, cached);
  }
  return cached;
}

export type { PolicyVariant };
