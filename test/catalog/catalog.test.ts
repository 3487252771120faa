import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog/catalog.js';
import { CATALOG_KINDS } from '../../src/catalog/catalog-entry.js';
import { catalogListing, catalogLookup } from '../../src/catalog/catalog-listing.js';
import { JUDGE_DECLARATIONS } from '../../src/judges/judge-catalog.js';
import { PROBE_CHECK_DECLARATIONS } from '../../src/probe/probe-check-catalog.js';
import { SCENARIOS } from '../../src/probe-client/scenarios.js';
import { bundledRules } from '../../src/rules/load-rules.js';

const entries = catalog();

describe('the catalog of every check', () => {
  it('holds every kind, each id once across kinds', () => {
    const counts = Object.fromEntries(CATALOG_KINDS.map((kind) => [kind, entries.filter((entry) => entry.kind === kind).length]));
    expect(counts).toEqual({
      'lint-rule': bundledRules().rules.length,
      'input-rule': 7,
      'drift-rule': 15,
      'session-judge': JUDGE_DECLARATIONS.length,
      'probe-check': 11,
      'client-scenario': SCENARIOS.length,
    });
    const ids = entries.map((entry) => entry.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('gives each entry a description, a basis and a page titled with its id; a severity, or a scenario its outcomes', () => {
    for (const entry of entries) {
      expect(entry.description, entry.id).not.toBe('');
      expect(entry.basis, entry.id).not.toBe('');
      expect(entry.page().split('\n')[0], entry.id).toBe(`# ${entry.id}`);
      if (entry.kind === 'client-scenario') expect(entry.outcomes).toEqual(['pass', 'fail', 'inconclusive', 'not-observable']);
      else expect(entry.severity, entry.id).toMatch(/^(error|warn|info)$/);
    }
  });

  it('takes a judge from its declaration: party, basis and the severity its fact implies', () => {
    const judge = entries.find((entry) => entry.id === 'client-cancels-on-idle-timeout');
    expect(judge).toMatchObject({
      kind: 'session-judge',
      party: 'client',
      basis: 'specification fact cancel-on-timeout',
      severity: 'warn',
    });
    expect(entries.find((entry) => entry.id === 'server-streams-progress')).toMatchObject({
      party: 'server',
      basis: 'lesson, section “Proxy buffering”',
    });
  });

  it('takes a probe check from its declaration: its outcomes and the id its SARIF rule and page carry', () => {
    for (const declaration of PROBE_CHECK_DECLARATIONS)
      expect(entries.find((entry) => entry.id === `probe-${declaration.id}`)).toMatchObject({
        kind: 'probe-check',
        outcomes: declaration.outcomes,
        description: declaration.title,
      });
  });

  it('links a scenario to the pages of the judges that decide it', () => {
    const page = entries.find((entry) => entry.id === 'slow_write')!.page();
    expect(page).toContain('## Decided by\n\n- [`client-retry-keeps-key`](client-retry-keeps-key.md)\n');
  });

  it('lists the probe checks and the scenarios after the session rules, and counts every kind', () => {
    const listing = catalogListing(entries, new Set(bundledRules().byId.keys()));
    expect(listing).toMatch(/\nprobe \(mcprely probe: [^\n]*\n {2}probe-revision {25}error {2}the server speaks the revision probed\n/);
    expect(listing).toMatch(/\nprobe-client scenarios [^\n]*\n {2}never_answers {2}/);
    expect(listing).toContain(
      `, ${JUDGE_DECLARATIONS.length} session rules, 11 probe checks and ${SCENARIOS.length} probe-client scenarios. `,
    );
  });

  it('looks an id up across kinds, and offers every id to suggest from when none matches', () => {
    expect(catalogLookup(entries, 'probe-wire').entry?.kind).toBe('probe-check');
    expect(catalogLookup(entries, 'never_answers').entry?.kind).toBe('client-scenario');
    expect(catalogLookup(entries, 'server-sse-headers').entry?.kind).toBe('session-judge');
    const missing = catalogLookup(entries, 'no-such-check');
    expect(missing.entry).toBeUndefined();
    expect(missing.ids).toHaveLength(entries.length);
  });
});
