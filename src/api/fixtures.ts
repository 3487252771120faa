import type { Fixture } from '../fixtures/fixture-types.js';
import { generateFixtures } from '../fixtures/generate-fixtures.js';
import { readManifestInput } from './manifest-input.js';
import { unknownOperation } from './review.js';

/** Whose failure fixtures: `mcprely fixtures`'s input as values. */
export interface FixturesOptions {
  /** The manifest file (with `text`: the name its problems are reported under). */
  readonly manifest: string;
  /** The manifest's text, when it is given instead of read from `manifest`. */
  readonly text?: string | Uint8Array;
  /** This operation's fixtures only; every operation's when absent. */
  readonly operation?: string;
}

/** The fixtures, or why the manifest cannot be used (its problems, each at its line and column). */
export type FixturesOutcome =
  | { readonly ok: true; readonly fixtures: readonly Fixture[] }
  | { readonly ok: false; readonly problem: string };

/** The failure fixtures of a manifest's operations, as `mcprely fixtures` writes them (without writing anything). */
export function fixtures(options: FixturesOptions): FixturesOutcome {
  const input = readManifestInput(options.manifest, options.text);
  if (!input.ok) return { ok: false, problem: input.report };
  const { operation } = options;
  const names = input.manifest.operations.map((one) => one.own.name);
  if (operation !== undefined && !names.includes(operation))
    return { ok: false, problem: unknownOperation(options.manifest, operation, names) };
  const all = generateFixtures(input.manifest);
  return { ok: true, fixtures: operation === undefined ? all : all.filter((fixture) => fixture.operation === operation) };
}
