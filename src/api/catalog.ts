import { catalog as catalogOf } from '../catalog/catalog.js';
import type { CatalogEntry } from '../catalog/catalog-entry.js';
import { loadSettings, SettingsError } from '../workspace/load-settings.js';

/** Whose checks: the bundled ones and the user's own rules, from a configuration. */
export interface CatalogOptions {
  /** A configuration file naming the user's rule folders, false for none, undefined to look in `cwd`. */
  readonly config?: string | false;
  /** Where to look for a configuration when none is named (the process's working directory by default). */
  readonly cwd?: string;
}

/** Every check, or why the configuration cannot be used. */
export type CatalogOutcome =
  | {
      readonly ok: true;
      /**
       * Every check a user sees, of every kind (lint, input and drift rules, session judges, probe checks, probe-client
       * scenarios), each with its id, description, party, basis, severity or outcomes, and its page (`page()`, the
       * markdown `mcprely rules <id>` prints).
       */
      readonly entries: readonly CatalogEntry[];
    }
  | { readonly ok: false; readonly problem: string };

/** The catalog of every check, as `mcprely rules` lists it: the bundled checks and the configuration's own rules. */
export async function catalog(options: CatalogOptions = {}): Promise<CatalogOutcome> {
  try {
    const settings = await loadSettings(options.config, options.cwd ?? process.cwd());
    return { ok: true, entries: catalogOf(await settings.ruleSet()) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return { ok: false, problem: error.report };
  }
}
