import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { schemaVariants } from '../helpers/schema-variants.js';
import { outcomeOf } from '../helpers/variant-outcomes.js';

/** The billing example with one field set (`path` through operations by name). */
function billingWith(path: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const manifest = structuredClone(schemaVariants.original('fixtures/examples/billing.yaml'));
  let node = manifest as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string | number, unknown>;
  }
  node[path.at(-1)!] = value;
  return manifest;
}

const operation = (name: string) => {
  const names = ['charge_account', 'get_balance', 'reindex_ledger', 'watch_accounts'];
  return ['operations', names.indexOf(name)] as const;
};

// The named flaws of durable tasks that fail a fixture, with the fixture that must fail and the rule lint reports.
const FLAWS: readonly { flaw: string; path: readonly (string | number)[]; value: unknown; fails: string; rule: string }[] = [
  {
    flaw: 'a task and its result kept 1 ms from creation',
    path: [...operation('reindex_ledger'), 'task', 'ttlMs'],
    value: 1,
    fails: 'reindex_ledger/task-result-within-ttl',
    rule: 'task-ttl-outlives-result',
  },
  {
    flaw: 'a poll interval longer than the TTL',
    path: [...operation('reindex_ledger'), 'task', 'pollIntervalMs'],
    value: 8_640_000_000,
    fails: 'reindex_ledger/task-result-within-ttl',
    rule: 'task-ttl-outlives-result',
  },
  {
    flaw: 'a client that does not say it waits for the task',
    path: [...operation('reindex_ledger'), 'task', 'clientWaits'],
    value: undefined,
    fails: 'reindex_ledger/task-drop-then-poll',
    rule: 'task-wait-until-terminal',
  },
  {
    flaw: 'a client that does not say how it cancels the task',
    path: [...operation('reindex_ledger'), 'task', 'cancelVia'],
    value: undefined,
    fails: 'reindex_ledger/task-cancel-ack-then-worker-checkpoint',
    rule: 'task-no-cancelled-notification',
  },
];

describe('each named flaw of a durable task fails a named fixture, and lint reports it', () => {
  it.each(FLAWS)('$flaw fails $fails', async ({ path, value, fails, rule }) => {
    const outcome = await outcomeOf(billingWith(path, value));
    expect(outcome.failures.map((failure) => failure.id)).toContain(fails);
    expect([...outcome.errors, ...outcome.warnings]).toContain(rule);
  });

  it('the examples’ TTL (86400000 ms) lets the client read the result', async () => {
    const outcome = await outcomeOf(billingWith([...operation('reindex_ledger'), 'task', 'ttlMs'], 86_400_000));
    expect(outcome.runs.find((run) => run.fixture.id === 'reindex_ledger/task-result-within-ttl')?.passed).toBe(true);
    expect(outcome.errors).toEqual([]);
  });
});

// A read or a listen stream cannot be a task on any revision: task-augmentable-method is lint-only (no such exchange
// exists), so its rows assert that lint reports it alone (the task rules do not pile on), that no fixture fails for
// it, and that the review shows the reason instead of a pass.
const NOT_A_TASK: readonly { flaw: string; name: string }[] = [
  { flaw: 'task.used: true on a read', name: 'get_balance' },
  { flaw: 'task.used: true on a listen stream', name: 'watch_accounts' },
];

describe('a read or a listen declared as a task: lint-only, its reason shown by review', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcprely-not-a-task-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(NOT_A_TASK)('$flaw', async ({ name }) => {
    const manifest = billingWith([...operation(name), 'task'], { used: true });
    const outcome = await outcomeOf(manifest);
    expect(outcome.errors).toEqual(['task-augmentable-method']);
    expect(outcome.verifiable).toEqual([]);
    expect(outcome.failures).toEqual([]);
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    const review = runCli(['review', file]).stdout;
    const section = review.slice(review.indexOf(`## ${name}`));
    expect(section).toContain('`task-augmentable-method`: lint-only because no such exchange exists');
  });
});
