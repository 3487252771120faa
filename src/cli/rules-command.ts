import { catalog } from '../api/catalog.js';
import { catalogListing, catalogLookup } from '../catalog/catalog-listing.js';
import { closestMatch } from '../document/did-you-mean.js';
import { bundledRules } from '../rules/load-rules.js';

/**
 * `mcprely rules`: the catalogue of every kind of check (the lint rules by area, then input and drift rules, session
 * judges, probe checks and probe-client scenarios); `mcprely rules <id>`: one's page — the bundled rules and the
 * user's own, from the configuration (`-c`, or mcprely.config.* in the working directory) that names their folders.
 */
export async function runRules(id: string | undefined, config: string | false | undefined = undefined): Promise<number> {
  const outcome = await catalog({ config });
  if (!outcome.ok) {
    process.stderr.write(outcome.problem);
    return 2;
  }
  const entries = outcome.entries;
  if (id === undefined) {
    process.stdout.write(catalogListing(entries, new Set(bundledRules().byId.keys())));
    return 0;
  }
  const { entry, ids } = catalogLookup(entries, id);
  if (entry === undefined) {
    const suggestion = closestMatch(id, ids);
    process.stderr.write(
      `error: no rule named ${id}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}; mcprely rules lists them\n`,
    );
    return 2;
  }
  process.stdout.write(entry.page());
  return 0;
}
