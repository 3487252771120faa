import { describe, expect, it } from 'vitest';
import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import type { Fixture, FixtureKind } from '../../src/fixtures/fixture-types.js';
import type { LoadedManifest } from '../../src/manifest/load.js';
import { loadExample } from '../helpers/load-example.js';
import { DERIVED_FIELDS } from '../../src/rules/derived-fields.js';
import type { FixtureRun } from '../../src/simulator/fixture-run.js';
import { runFixture } from '../../src/simulator/run-fixture.js';
import { validateFixture } from '../../src/generated/validate-fixture.js';

// Issue 25: a key lifetime (idempotency.keyTtlMs) or an in-flight answer (idempotency.whileInFlight) that lint
// refuses must make a fixture fail in verify, and the values it accepts must pass.

const BILLING = 'fixtures/examples/billing.yaml';

function load(edit: (text: string) => string = (text) => text): LoadedManifest {
  return loadExample(BILLING, edit);
}

/** billing.yaml with one value of charge_account's idempotency replaced (the text must be there). */
function variant(from: string, to: string): LoadedManifest {
  return load((text) => {
    expect(text).toContain(from);
    return text.replace(from, to);
  });
}

function fixtureOf(manifest: LoadedManifest, kind: FixtureKind): Fixture {
  const found = generateFixtures(manifest).find((fixture) => fixture.operation === 'charge_account' && fixture.kind === kind);
  if (found === undefined) throw new Error(`no charge_account/${kind} fixture`);
  return found;
}

const failed = (run: FixtureRun) => run.results.filter((result) => !result.passed).map((result) => result.expectation.check);
const lines = (run: FixtureRun) => run.transcript.map((entry) => `t=${entry.at} ${entry.lane}: ${entry.text}`);

/** The retry window the rule idem-key-lifetime compares keyTtlMs with ($retryWindowMs), for charge_account. */
function retryWindowOf(manifest: LoadedManifest): number {
  const operation = manifest.operations.find((candidate) => candidate.spec.name === 'charge_account')!;
  return DERIVED_FIELDS['$retryWindowMs']!(operation.spec, manifest.manifest.server) as number;
}

const LEDGER_KINDS: readonly FixtureKind[] = [
  'duplicate-mutation-two-ids-no-key',
  'lost-response-automatic-retry',
  'one-key-identical-arguments',
  'key-reuse-changed-arguments',
  'two-connections-race-one-key',
  'caller-mutates-result-clean-replay',
  'close-reopen-replay',
];

describe('the ledger fixtures simulate the declared key lifetime and in-flight answer', () => {
  const clean = load();
  const window = retryWindowOf(clean);

  it('the clean manifest passes every ledger fixture of charge_account', async () => {
    expect(window).toBe(3 * 60000 + 2 * 8000);
    for (const kind of LEDGER_KINDS) {
      const run = await runFixture(fixtureOf(clean, kind));
      expect(run.passed, `${kind}:\n${lines(run).join('\n')}\n${JSON.stringify(run.results, null, 2)}`).toBe(true);
    }
  });

  it('places the automatic retry at the last moment of the retry window, in two steps whatever the times', () => {
    const fixture = fixtureOf(clean, 'lost-response-automatic-retry');
    expect(fixture.steps).toHaveLength(2);
    expect(fixture.steps[1]).toMatchObject({ do: 'retry-after-lost-response', at: window - 1 });
    expect(fixture.expect).toEqual([
      { check: 'executions', count: 1 },
      { check: 'results-equal', steps: ['first', 'retry'] },
    ]);
    // The window follows the policy the rule reads: maxAttempts × timeouts.maxMs plus the backoff cap between.
    const longer = variant(
      'maxAttempts: 3\n      newRequestId: true\n      reconcileFirst: true',
      'maxAttempts: 5\n      newRequestId: true\n      reconcileFirst: true',
    );
    expect(retryWindowOf(longer)).toBe(5 * 60000 + 4 * 8000);
    expect(fixtureOf(longer, 'lost-response-automatic-retry').steps[1]!.at).toBe(retryWindowOf(longer) - 1);
  });

  it("the fixture's retry window is the rule's $retryWindowMs, defaults included", () => {
    const edits: ((text: string) => string)[] = [
      (text) => text,
      (text) =>
        text.replace(
          '      maxAttempts: 3\n      newRequestId: true\n      reconcileFirst: true',
          '      newRequestId: true\n      reconcileFirst: true',
        ),
      (text) => text.replace('      backoff: { baseMs: 250, capMs: 8000, jitter: full }\n    idempotency:', '    idempotency:'),
      (text) =>
        text.replace(
          'maxAttempts: 3\n      newRequestId: true\n      reconcileFirst: true',
          'maxAttempts: 1\n      newRequestId: true\n      reconcileFirst: true',
        ),
      (text) => text.replace('timeouts: { idleMs: 5000, maxMs: 60000 }', 'timeouts: { idleMs: 5000 }').replace('    maxMs: 120000\n', ''),
    ];
    const windows = edits.map((edit) => {
      const manifest = load(edit);
      const operation = manifest.operations.find((candidate) => candidate.spec.name === 'charge_account')!;
      const rule = DERIVED_FIELDS['$retryWindowMs']!(operation.spec, manifest.manifest.server) as number | undefined;
      // The retry comes at the last moment of the window the rule compares keyTtlMs with (at the idle timeout without one).
      const retry = fixtureOf(manifest, 'lost-response-automatic-retry').steps.find((step) => step.do === 'retry-after-lost-response')!;
      expect(retry.at).toBe(rule === undefined ? 5000 : rule - 1);
      return rule;
    });
    // The declared window, the default of 3 attempts, no backoff cap, one attempt, and no maximum timeout (no window).
    expect(windows).toEqual([196000, 196000, 180000, 60000, undefined]);
  });

  for (const ttl of [0, 1, window - 1]) {
    it(`keyTtlMs: ${ttl} (below the ${window} ms window) fails lost-response-automatic-retry with a second execution`, async () => {
      const run = await runFixture(fixtureOf(variant('keyTtlMs: 86400000', `keyTtlMs: ${ttl}`), 'lost-response-automatic-retry'));
      expect(run.passed).toBe(false);
      expect(failed(run)).toContain('executions');
      expect(run.results.find((result) => result.expectation.check === 'executions')!.detail).toBe('the business effect ran 2 times');
      expect(lines(run).join('\n')).toMatch(/key checkout-7 expired after \d+ ms \(idempotency\.keyTtlMs/);
    });
  }

  for (const ttl of [window, window + 1, 86400000]) {
    it(`keyTtlMs: ${ttl} (at or above the ${window} ms window) passes lost-response-automatic-retry`, async () => {
      const run = await runFixture(fixtureOf(variant('keyTtlMs: 86400000', `keyTtlMs: ${ttl}`), 'lost-response-automatic-retry'));
      expect(run.passed, lines(run).join('\n')).toBe(true);
      expect(lines(run).join('\n')).not.toMatch(/expired/);
    });
  }

  it('a retry window longer than a day runs on the logical clock: two steps, no waiting', async () => {
    // Eight-hour attempts: three of them and the backoff outlast a key kept for a day.
    const long = variant('timeouts: { idleMs: 5000, maxMs: 60000 }', 'timeouts: { idleMs: 5000, maxMs: 28800000 }');
    const fixture = fixtureOf(long, 'lost-response-automatic-retry');
    expect(fixture.steps).toHaveLength(2);
    expect(fixture.steps[1]!.at).toBe(3 * 28800000 + 2 * 8000 - 1);
    const started = performance.now();
    const run = await runFixture(fixture);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(failed(run)).toContain('executions');
    expect(lines(run).join('\n')).toContain('key checkout-7 expired after 86415999 ms');
  });

  it('an older fixture without request parameters keeps the keys for ever and lets racers wait, as before', async () => {
    const withoutRequest = (fixture: Fixture): Fixture => {
      const { request: _absent, ...parameters } = fixture.parameters;
      return { ...fixture, parameters };
    };
    const lost = fixtureOf(variant('keyTtlMs: 86400000', 'keyTtlMs: 1'), 'lost-response-automatic-retry');
    const run = await runFixture(withoutRequest(lost));
    expect(run.passed, lines(run).join('\n')).toBe(true);
    const race = fixtureOf(variant('whileInFlight: wait', 'whileInFlight: execute'), 'two-connections-race-one-key');
    expect((await runFixture(withoutRequest(race))).passed).toBe(true);
  });

  it('whileInFlight: replay fails the race: the second is answered with a result nothing stored yet', async () => {
    const run = await runFixture(fixtureOf(variant('whileInFlight: wait', 'whileInFlight: replay'), 'two-connections-race-one-key'));
    expect(run.passed).toBe(false);
    expect(failed(run)).toEqual(['results-equal']);
    expect(lines(run).join('\n')).toMatch(/in flight.*replay/);
  });

  it('whileInFlight: execute fails the race: the second runs without waiting for the claim', async () => {
    const run = await runFixture(fixtureOf(variant('whileInFlight: wait', 'whileInFlight: execute'), 'two-connections-race-one-key'));
    expect(run.passed).toBe(false);
    expect(failed(run)).toContain('executions');
    expect(run.results.find((result) => result.expectation.check === 'executions')!.detail).toBe('the business effect ran 2 times');
  });

  it('whileInFlight: conflict passes the race: the second gets a conflict, retries after the commit and replays', async () => {
    const run = await runFixture(fixtureOf(variant('whileInFlight: wait', 'whileInFlight: conflict'), 'two-connections-race-one-key'));
    expect(run.passed, lines(run).join('\n')).toBe(true);
    const text = lines(run).join('\n');
    expect(text).toMatch(/connection B: .*conflict/);
    expect(text).toMatch(/connection B: retries after connection A committed/);
    expect(text).toContain('replayed the stored result of key checkout-7');
  });

  it('whileInFlight: wait passes the race on real threads, as without a declaration', async () => {
    for (const manifest of [clean, load((text) => text.replace('      whileInFlight: wait\n', ''))]) {
      const run = await runFixture(fixtureOf(manifest, 'two-connections-race-one-key'));
      expect(run.passed, lines(run).join('\n')).toBe(true);
      expect(lines(run).join('\n')).toContain('2 connections released together: 1 committed an execution, 1 replayed or were rejected');
    }
  });

  it('runs are reproducible: the same transcript for each policy', async () => {
    for (const policy of ['conflict', 'replay', 'execute'])
      for (const kind of ['two-connections-race-one-key', 'lost-response-automatic-retry'] as const) {
        const fixture = fixtureOf(variant('whileInFlight: wait', `whileInFlight: ${policy}`), kind);
        expect(lines(await runFixture(fixture))).toEqual(lines(await runFixture(fixture)));
      }
  });
});

// idempotency.keyScope (rule idem-key-scope): on a server shared by tenants, two tenants' clients that both choose
// the key "order-1" must each get their own execution; a global key space replays one tenant's result to the
// other or rejects the other's request as key reuse.

const INVENTORY = 'fixtures/examples/inventory.yaml';

function inventory(edit: (text: string) => string = (text) => text): LoadedManifest {
  return loadExample(INVENTORY, edit);
}

function replacing(from: string, to: string): (text: string) => string {
  return (text) => {
    expect(text).toContain(from);
    return text.replace(from, to);
  };
}

const ACROSS_TENANTS = 'key-reuse-across-tenants' as FixtureKind;

function acrossTenants(manifest: LoadedManifest): Fixture | undefined {
  return generateFixtures(manifest).find((fixture) => fixture.operation === 'reserve_inventory' && fixture.kind === ACROSS_TENANTS);
}

async function runAcrossTenants(manifest: LoadedManifest): Promise<FixtureRun> {
  const fixture = acrossTenants(manifest);
  if (fixture === undefined) throw new Error(`no reserve_inventory/${ACROSS_TENANTS} fixture`);
  return runFixture(fixture);
}

describe('the ledger fixtures simulate the declared key scope on a server shared by tenants', () => {
  it('inventory.yaml (keys scoped to the tenant) passes: each tenant gets its own execution of "order-1"', async () => {
    const manifest = inventory();
    const fixture = acrossTenants(manifest)!;
    expect(validateFixture(JSON.parse(JSON.stringify(fixture))), JSON.stringify(validateFixture.errors)).toBe(true);
    expect(fixture.parameters.request?.keyScope).toBe('tenant');
    const run = await runFixture(fixture);
    const text = lines(run).join('\n');
    expect(run.passed, `${text}\n${JSON.stringify(run.results, null, 2)}`).toBe(true);
    expect(run.results.find((result) => result.expectation.check === 'executions')!.detail).toBe('the business effect ran 2 times');
    // The transcript names the tenant of each request and shows the key as the client sent it.
    expect(text).toMatch(/client → server: \{"jsonrpc":"2.0","id":"41".*\n.*server: this request is from tenant tenant-a/);
    expect(text).toMatch(/client → server: \{"jsonrpc":"2.0","id":"42".*\n.*server: this request is from tenant tenant-b/);
    expect(text).toContain('replayed the stored result of key order-1 (scope tenant-b)');
    expect(text).toContain('"idempotencyKey":"order-1"');
    expect(text).not.toContain('\u0000');
    // Each tenant's arguments name its own tenant; everything else is the same.
    const charges = fixture.steps.filter((step) => step.do === 'charge');
    expect(charges.map((step) => step.arguments['tenant'])).toEqual(['tenant-a', 'tenant-b', 'tenant-b']);
    expect(new Set(charges.map((step) => step.key))).toEqual(new Set(['order-1']));
  });

  it('keys scoped to the grant pass as well', async () => {
    const run = await runAcrossTenants(inventory(replacing('keyScope: tenant', 'keyScope: grant')));
    expect(run.passed, lines(run).join('\n')).toBe(true);
    expect(lines(run).join('\n')).toMatch(/grant/);
  });

  it('keyScope: global fails: tenant B is rejected for arguments it never sent (the fingerprint binds the tenant)', async () => {
    const run = await runAcrossTenants(inventory(replacing('keyScope: tenant', 'keyScope: global')));
    expect(run.passed).toBe(false);
    expect(failed(run)).toContain('executions');
    expect(run.results.find((result) => result.expectation.check === 'executions')!.detail).toBe('the business effect ran 1 time');
    expect(lines(run).join('\n')).toContain('idempotency key "order-1" was reused with different arguments');
  });

  it('keyScope: global fails with a cross-tenant leak when the fingerprint does not bind the tenant', async () => {
    const run = await runAcrossTenants(
      inventory((text) =>
        replacing(
          'keyScope: tenant',
          'keyScope: global',
        )(replacing('fingerprint: [tenant, sku, quantity]', 'fingerprint: [sku, quantity]')(text)),
      ),
    );
    expect(run.passed).toBe(false);
    expect(failed(run)).toContain('executions');
    const text = lines(run).join('\n');
    expect(text).toMatch(/replayed the stored result of key order-1/);
    expect(text).toContain("tenant tenant-b received tenant tenant-a's result, a cross-tenant leak");
  });

  it("keyScope: global with a policy that executes a reused key fails on tenant B's own retry", async () => {
    const run = await runAcrossTenants(
      inventory((text) =>
        replacing(
          'keyScope: tenant',
          'keyScope: global',
        )(replacing('onKeyReuseWithOtherArguments: reject', 'onKeyReuseWithOtherArguments: execute')(text)),
      ),
    );
    expect(run.passed).toBe(false);
    expect(run.results.find((result) => result.expectation.check === 'executions')!.detail).toBe('the business effect ran 3 times');
  });

  it('an undeclared keyScope is simulated as global (the unsafe assumption), and the transcript says so', async () => {
    const run = await runAcrossTenants(inventory(replacing('      keyScope: tenant\n', '')));
    expect(run.passed).toBe(false);
    expect(failed(run)).toContain('executions');
    expect(lines(run).join('\n')).toMatch(/idempotency\.keyScope is not declared: simulated as global/);
  });

  it('a single-tenant server gets no such fixture', () => {
    expect(acrossTenants(inventory(replacing('tenancy: multi', 'tenancy: single')))).toBeUndefined();
    expect(acrossTenants(inventory(replacing('  tenancy: multi\n', '')))).toBeUndefined();
    expect(generateFixtures(load()).some((fixture) => fixture.kind === ACROSS_TENANTS)).toBe(false);
  });

  it('the other ledger fixtures of reserve_inventory still pass with keys scoped to the tenant', async () => {
    const manifest = inventory();
    const fixtures = generateFixtures(manifest).filter(
      (fixture) => fixture.operation === 'reserve_inventory' && (LEDGER_KINDS as readonly string[]).includes(fixture.kind),
    );
    expect(fixtures.map((fixture) => fixture.kind).sort()).toEqual([...LEDGER_KINDS].sort());
    for (const fixture of fixtures) {
      const run = await runFixture(fixture);
      expect(run.passed, `${fixture.kind}:\n${lines(run).join('\n')}`).toBe(true);
    }
  });

  it('racers of two tenants pass their scopes to the racing threads: one record per tenant, or one for both when global', async () => {
    const race = (manifest: LoadedManifest): Fixture => {
      const fixture = acrossTenants(manifest)!;
      return {
        ...fixture,
        steps: [
          {
            at: 0,
            id: 'race',
            do: 'race',
            connections: ['A:tenant-a', 'B:tenant-b'],
            arguments: { sku: 'sku-7', quantity: 1 },
            key: 'order-1',
          },
        ],
        expect: [{ check: 'executions', count: 2 }],
      };
    };
    const unbound = replacing('fingerprint: [tenant, sku, quantity]', 'fingerprint: [sku, quantity]');
    const scoped = await runFixture(race(inventory(unbound)));
    expect(scoped.passed, lines(scoped).join('\n')).toBe(true);
    expect(lines(scoped).join('\n')).toContain('connection B (tenant tenant-b): the shared ledger file');
    const global = await runFixture(race(inventory((text) => unbound(replacing('keyScope: tenant', 'keyScope: global')(text)))));
    expect(global.results[0]!.detail).toBe('the business effect ran 1 time');
  });

  it('runs are reproducible for every scope', async () => {
    for (const edit of [
      (text: string) => text,
      replacing('keyScope: tenant', 'keyScope: grant'),
      replacing('keyScope: tenant', 'keyScope: global'),
      replacing('      keyScope: tenant\n', ''),
    ]) {
      const fixture = acrossTenants(inventory(edit))!;
      expect(lines(await runFixture(fixture))).toEqual(lines(await runFixture(fixture)));
    }
  });
});
