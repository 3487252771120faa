import { describe, expect, it } from 'vitest';
import { transcriptDisagreements } from '../../src/simulator/transcript-agreement.js';
import { describeVariant, schemaVariants, type PolicyVariant } from './schema-variants.js';
import { outcomeOf } from './variant-outcomes.js';

/** How many of an example's variants a suite runs: all of them, or every `nth` (a spread sample, the same each run). */
export type VariantShare = { readonly all: true } | { readonly every: number };

/**
 * Evidence that can fail: for every single-field variant of a bundled clean example (`schemaVariants`: every
 * policy field of every operation and of defaults, set, inherited or unset, at each boolean, enumerated value and
 * degenerate number), a lint error means some fixture fails in verify — unless that finding is lint-only and says
 * why (`verification` in its rule) — and a fixture that fails means lint reports a finding. Every transcript
 * agrees with its operation's policy and method.
 */
export function variantSuite(name: string, share: VariantShare): void {
  const all = schemaVariants(`fixtures/examples/${name}`);
  const variants = 'all' in share ? all : all.filter((_, index) => index % share.every === 0);
  describe(`single-field variants of ${name} (${'all' in share ? 'all' : `one in ${share.every}`} of ${all.length})`, () => {
    it('the clean example lints clean, passes every fixture, and its transcripts agree with its policy', async () => {
      const clean = await outcomeOf(schemaVariants.original(`fixtures/examples/${name}`));
      expect(clean.errors).toEqual([]);
      expect(clean.failures).toEqual([]);
      expect(clean.runs.flatMap(transcriptDisagreements)).toEqual([]);
    });

    it('has enough variants to mean something', () => {
      expect(all.length).toBeGreaterThan(400);
    });

    it('lint error ⇒ a failing fixture (or a lint-only finding with its reason); a failing fixture ⇒ a lint finding', async () => {
      const { disagreements, lies, flagged, failed } = await judgeVariants(variants);
      console.log(`${name}: ${variants.length} variants, ${flagged} with lint errors, ${failed} failing verify`);
      expect(lies).toEqual([]);
      expect(disagreements).toEqual([]);
    }, 600_000);
  });
}

async function judgeVariants(variants: readonly PolicyVariant[]) {
  const disagreements: string[] = [];
  const lies: string[] = [];
  let flagged = 0;
  let failed = 0;
  for (const variant of variants) {
    const described = `${variant.scope}: ${describeVariant(variant)}`;
    const outcome = await outcomeOf(variant.manifest);
    expect(outcome.schemaProblems, described).toEqual([]);
    if (outcome.errors.length > 0) flagged++;
    if (outcome.failures.length > 0) failed++;
    if (outcome.verifiable.length > 0 && outcome.failures.length === 0)
      disagreements.push(`${described}: lint errors (${outcome.verifiable.join(', ')}), every fixture passes`);
    if (outcome.failures.length > 0 && outcome.errors.length === 0 && outcome.warnings.length === 0)
      disagreements.push(`${described}: fixtures fail (${outcome.failures.map((failure) => failure.id).join(', ')}), lint finds nothing`);
    for (const run of outcome.runs) for (const lie of transcriptDisagreements(run)) lies.push(`${described}: ${run.fixture.id}: ${lie}`);
  }
  return { disagreements, lies, flagged, failed };
}
