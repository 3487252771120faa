import { RULE_AREAS } from '../rules/rule-types.js';
import { plural } from '../text/plural.js';
import type { CatalogEntry, CatalogKind } from './catalog-entry.js';

/** The sections after the lint rules' areas: each kind's heading in `mcprely rules`. */
const SECTIONS: readonly { readonly kind: CatalogKind; readonly heading: string }[] = [
  { kind: 'input-rule', heading: 'input (a file that cannot be used: exit code 2)' },
  { kind: 'drift-rule', heading: 'drift (mcprely drift: the manifest against the live server)' },
  { kind: 'session-judge', heading: 'session (mcprely proxy and audit: what the server and the client did in a real session)' },
  { kind: 'probe-check', heading: 'probe (mcprely probe: checks the probe runs on a live server)' },
  { kind: 'client-scenario', heading: 'probe-client scenarios (mcprely probe-client: tools that misbehave for a client to handle)' },
];

function line(entry: CatalogEntry, suffix = ''): string {
  return `  ${entry.id.padEnd(38)} ${(entry.severity ?? '').padEnd(5)}  ${entry.description}${suffix}`;
}

/**
 * `mcprely rules`: the lint rules by area (a rule not in `builtIn` marked as the user's), then each other kind, and
 * how many of each.
 */
export function catalogListing(entries: readonly CatalogEntry[], builtIn: ReadonlySet<string>): string {
  const lines: string[] = [];
  const lintRules = entries.filter((entry) => entry.kind === 'lint-rule');
  for (const area of RULE_AREAS) {
    const rules = lintRules.filter((rule) => rule.area === area);
    if (rules.length === 0) continue;
    lines.push(`${area}`);
    for (const rule of rules) lines.push(line(rule, builtIn.has(rule.id) ? '' : ' (your rule)'));
    lines.push('');
  }
  const count = (kind: CatalogKind) => entries.filter((entry) => entry.kind === kind).length;
  for (const { kind, heading } of SECTIONS) {
    lines.push(heading);
    for (const entry of entries) if (entry.kind === kind) lines.push(line(entry));
    lines.push('');
  }
  lines.push(
    `${plural(lintRules.length, 'rule')}, ${plural(count('input-rule'), 'input rule')}, ${plural(count('drift-rule'), 'drift rule')}, ` +
      `${plural(count('session-judge'), 'session rule')}, ${plural(count('probe-check'), 'probe check')} ` +
      `and ${plural(count('client-scenario'), 'probe-client scenario')}. ` +
      "mcprely rules <id> prints one rule's page.",
  );
  return `${lines.join('\n')}\n`;
}

/** The order `mcprely rules <id>` looks an id up in (an id of two kinds is the first kind's). */
const LOOKUP_ORDER: readonly CatalogKind[] = ['input-rule', 'drift-rule', 'session-judge', 'lint-rule', 'probe-check', 'client-scenario'];

/** The entry `mcprely rules <id>` prints, and the ids it suggests from when there is none. */
export function catalogLookup(entries: readonly CatalogEntry[], id: string): { entry?: CatalogEntry; ids: string[] } {
  const ordered = LOOKUP_ORDER.flatMap((kind) => entries.filter((entry) => entry.kind === kind));
  const entry = ordered.find((candidate) => candidate.id === id);
  return entry === undefined ? { ids: ordered.map((candidate) => candidate.id) } : { entry, ids: [] };
}
