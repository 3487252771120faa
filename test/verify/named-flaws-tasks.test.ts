import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { exampleWith, namedFlawsSuite, opPath, type NamedFlaw } from '../helpers/named-flaws.js';
import { outcomeOf } from '../helpers/variant-outcomes.js';

// The named flaws of durable tasks that fail a fixture, with the fixture that must fail and the rule lint reports.
const FLAWS: readonly NamedFlaw[] = [
  {
    flaw: 'a task and its result kept 1 ms from creation',
    path: [...opPath('reindex_ledger'), 'task', 'ttlMs'],
    value: 1,
    fails: 'reindex_ledger/task-result-within-ttl',
    rule: 'task-ttl-outlives-result',
  },
  {
    flaw: 'a poll interval longer than the TTL',
    path: [...opPath('reindex_ledger'), 'task', 'pollIntervalMs'],
    value: 8_640_000_000,
    fails: 'reindex_ledger/task-result-within-ttl',
    rule: 'task-ttl-outlives-result',
  },
  {
    flaw: 'a client that does not say it waits for the task',
    path: [...opPath('reindex_ledger'), 'task', 'clientWaits'],
    value: undefined,
    fails: 'reindex_ledger/task-drop-then-poll',
    rule: 'task-wait-until-terminal',
  },
  {
    flaw: 'a client that does not say how it cancels the task',
    path: [...opPath('reindex_ledger'), 'task', 'cancelVia'],
    value: undefined,
    fails: 'reindex_ledger/task-cancel-ack-then-worker-checkpoint',
    rule: 'task-no-cancelled-notification',
  },
];

namedFlawsSuite('each named flaw of a durable task fails a named fixture, and lint reports it', FLAWS);

describe('a durable task of the examples’ own TTL', () => {
  it('the examples’ TTL (86400000 ms) lets the client read the result', async () => {
    const outcome = await outcomeOf(exampleWith('billing.yaml', [...opPath('reindex_ledger'), 'task', 'ttlMs'], 86_400_000));
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
    const manifest = exampleWith('billing.yaml', [...opPath(name), 'task'], { used: true });
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
