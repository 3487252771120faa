import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { FIXTURE_KINDS } from '../../src/fixtures/fixture-types.js';
import { schemaVariants } from '../helpers/schema-variants.js';
import { outcomeOf } from '../helpers/variant-outcomes.js';

const EXAMPLES = ['billing.yaml', 'billing-2025.yaml', 'inventory.yaml', 'docs-search.yaml'];
const CHECKS = (
  JSON.parse(readFileSync('schemas/fixture.schema.json', 'utf8')) as {
    $defs: { expectation: { properties: { check: { enum: string[] } } } };
  }
).$defs.expectation.properties.check.enum;

/**
 * Fixture kinds that pass whatever the policy says, each with why: they show the reference implementation doing what
 * the lesson describes, not a claim of the manifest.
 */
const DEMONSTRATIONS: Readonly<Record<string, string>> = {
  'duplicate-mutation-two-ids-no-key':
    'it shows that a new JSON-RPC id is not idempotency (the same mutation without a key runs twice); no policy value changes that',
};

/**
 * A pass means something only where a failure was possible: over every single-field variant of every bundled clean
 * example, each expectation check the fixture format has, and each fixture kind the examples' variants generate,
 * fails for at least one flawed policy (the demonstrations above aside). A check or fixture that could not fail
 * would report "passed" for every policy.
 */
it('every expectation check and every fixture kind fails for some single-field variant of the clean examples', async () => {
  const failedChecks = new Set<string>();
  const failedKinds = new Set<string>();
  const generatedKinds = new Set<string>();
  for (const example of EXAMPLES)
    for (const variant of schemaVariants(`fixtures/examples/${example}`))
      for (const run of (await outcomeOf(variant.manifest)).runs) {
        const kind = run.fixture.id.slice(run.fixture.id.indexOf('/') + 1);
        generatedKinds.add(kind);
        if (!run.passed) failedKinds.add(kind);
        for (const result of run.results) if (!result.passed) failedChecks.add(result.expectation.check);
      }
  expect(CHECKS.filter((check) => !failedChecks.has(check))).toEqual([]);
  expect([...generatedKinds].filter((kind) => !failedKinds.has(kind) && DEMONSTRATIONS[kind] === undefined)).toEqual([]);
  // Every kind the generators know is generated for some variant, so none escapes the line above.
  expect(FIXTURE_KINDS.filter((kind) => !generatedKinds.has(kind))).toEqual([]);
}, 900_000);
