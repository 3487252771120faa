import { describe, expect, it } from 'vitest';
import { bundledRules } from '../../src/rules/load-rules.js';
import { transcriptDisagreements } from '../../src/simulator/transcript-agreement.js';
import { describeVariant, policyVariants } from './policy-variants.js';
import { outcomeOf } from './variant-outcomes.js';

/** Rules whose file says why no fixture can show what they report. */
const LINT_ONLY = new Map(
  bundledRules()
    .rules.filter((rule) => rule.definition.verification !== undefined)
    .map((rule) => [rule.definition.id, rule.definition.verification!.lintOnly]),
);

/**
 * Evidence that can fail: for every single-field change of each bundled clean example (booleans flipped,
 * every other enumerated value, numbers at their bounds), a lint error means some fixture fails in verify —
 * unless every error comes from a rule that declares itself lint-only, with its reason — and a fixture that
 * fails means lint reports an error. Every transcript agrees with its operation's policy and method.
 */
export function variantSuite(name: string): void {
  describe(`single-field variants of ${name}`, () => {
    const file = `fixtures/examples/${name}`;
    const variants = policyVariants(file);

    it('the clean example lints clean, passes every fixture, and its transcripts agree with its policy', async () => {
      const clean = await outcomeOf(policyVariants.original(file));
      expect(clean.errors).toEqual([]);
      expect(clean.failures).toEqual([]);
      expect(clean.runs.flatMap(transcriptDisagreements)).toEqual([]);
    });

    it('has enough variants to mean something', () => {
      expect(variants.length).toBeGreaterThan(100);
    });

    it('lint error ⇒ a failing fixture (or a declared lint-only rule); a failing fixture ⇒ a lint error', async () => {
      const disagreements: string[] = [];
      const lies: string[] = [];
      let flagged = 0;
      let failed = 0;
      for (const variant of variants) {
        const outcome = await outcomeOf(variant.manifest);
        expect(outcome.schemaProblems, describeVariant(variant)).toEqual([]);
        const verifiable = outcome.errors.filter((rule) => !LINT_ONLY.has(rule));
        if (outcome.errors.length > 0) flagged++;
        if (outcome.failures.length > 0) failed++;
        if (verifiable.length > 0 && outcome.failures.length === 0)
          disagreements.push(`${describeVariant(variant)}: lint errors (${verifiable.join(', ')}), every fixture passes`);
        if (outcome.failures.length > 0 && outcome.errors.length === 0)
          disagreements.push(
            `${describeVariant(variant)}: fixtures fail, no lint error${outcome.warnings.length > 0 ? ` (warnings: ${outcome.warnings.join(', ')})` : ''}`,
          );
        for (const run of outcome.runs)
          for (const lie of transcriptDisagreements(run)) lies.push(`${describeVariant(variant)}: ${run.fixture.id}: ${lie}`);
      }
      console.log(`${name}: ${variants.length} variants, ${flagged} flagged by lint, ${failed} failing verify`);
      expect(lies).toEqual([]);
      expect(disagreements).toEqual([]);
    }, 240_000);
  });
}
