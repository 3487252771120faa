import { describe, expect, it } from 'vitest';
import { schemaVariants } from './schema-variants.js';
import { outcomeOf } from './variant-outcomes.js';

type Path = readonly (string | number)[];

/** A flaw a reviewer named: one field of a bundled clean example set (or removed), the fixture that must fail for it, and the rule lint reports. */
export interface NamedFlaw {
  readonly flaw: string;
  /** The example under fixtures/examples/ (billing.yaml unless said). */
  readonly file?: string;
  /** From the manifest's root; `opPath` writes the part through an operation by its name. */
  readonly path: Path;
  /** `undefined` removes the field. */
  readonly value: unknown;
  readonly fails: string;
  readonly rule: string;
}

/** A bundled clean example with one field set (creating the objects on its way) or, for `undefined`, removed. */
export function exampleWith(file: string, path: Path, value: unknown): Record<string, unknown> {
  const manifest = structuredClone(schemaVariants.original(`fixtures/examples/${file}`));
  let node = manifest as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string | number, unknown>;
  }
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return manifest;
}

/** The path of an operation of a bundled clean example, by its name. */
export function opPath(name: string, file = 'billing.yaml'): readonly ['operations', number] {
  const operations = schemaVariants.original(`fixtures/examples/${file}`)['operations'] as { name: string }[];
  const index = operations.findIndex((operation) => operation.name === name);
  if (index === -1) throw new Error(`${file} has no operation ${name}`);
  return ['operations', index];
}

/** Each flaw fails its named fixture, and lint reports its rule (an error or a warning). */
export function namedFlawsSuite(title: string, flaws: readonly NamedFlaw[]): void {
  describe(title, () => {
    it.each(flaws)('$flaw fails $fails', async ({ file = 'billing.yaml', path, value, fails, rule }) => {
      const outcome = await outcomeOf(exampleWith(file, path, value));
      expect(outcome.failures.map((failure) => failure.id)).toContain(fails);
      expect([...outcome.errors, ...outcome.warnings]).toContain(rule);
    });
  });
}
