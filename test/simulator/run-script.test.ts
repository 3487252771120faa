import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Fixture, FixtureKind, Step } from '../../src/fixtures/fixture-types.js';
import { generateFixtures } from '../../src/fixtures/generate-fixtures.js';
import { loadManifest } from '../../src/manifest/load.js';
import { FixtureError } from '../../src/simulator/fixture-error.js';
import { runFixture, runScript } from '../../src/simulator/run-fixture.js';

const loaded = loadManifest('fixtures/examples/billing.yaml', readFileSync('fixtures/examples/billing.yaml'));
if (!loaded.ok) throw new Error('billing.yaml should load');
const fixtures = generateFixtures(loaded);
const fixtureOf = (kind: FixtureKind): Fixture => fixtures.find((fixture) => fixture.kind === kind)!;

describe('runScript, the fixture runner without ledgers', () => {
  // The same steps on the same worlds as runFixture: a fixture that waits on no ledger gives the same transcript either way.
  it.each<FixtureKind>([
    'stdio-cancel-before-completion',
    'stdio-complete-before-late-cancel',
    'stream-drop-reconnect-refetch',
    'task-cancel-ack-then-worker-checkpoint',
    'task-drop-then-poll',
    'task-result-within-ttl',
  ])('plays %s as runFixture does', async (kind) => {
    const fixture = fixtureOf(kind);
    expect(runScript(fixture).transcript).toEqual((await runFixture(fixture)).transcript);
  });

  it('reads how each request and task ended', () => {
    const base = fixtureOf('stdio-cancel-before-completion');
    const steps: Step[] = [
      { at: 0, do: 'start', request: 'r1' },
      { at: 100, do: 'cancel', request: 'r1', reason: 'user pressed stop' },
      { at: 150, do: 'task-create', task: 't1' },
      { at: 200, do: 'task-expire', task: 't1' },
      { at: 250, do: 'note', lane: 'client', text: 'a line the simulator does not model' },
    ];
    const run = runScript({ ...base, steps, expect: [] });
    expect(run.requests.get('r1')).toMatchObject({ state: 'cancelled', cancelledByClient: true, responsesDelivered: 0 });
    expect(run.tasks.get('t1')).toEqual({ status: undefined, final: undefined, unknownAnswers: 0 });
    expect(run.transcript.at(-1)).toEqual({ at: 250, lane: 'client', text: 'a line the simulator does not model' });
  });

  it.each<Step>([
    { at: 100, do: 'charge', connection: 'a', request: 'r2', arguments: {} },
    { at: 100, do: 'race', connections: ['a', 'b'], arguments: {}, key: 'k' },
    { at: 100, do: 'reopen', connection: 'a' },
    { at: 100, do: 'retry-after-lost-response', of: 'c1', connection: 'a', request: 'r3' },
  ])('refuses a script with a $do step, at the step', (waits) => {
    const base = fixtureOf('stdio-cancel-before-completion');
    let thrown: unknown;
    try {
      runScript({ ...base, steps: [{ at: 0, do: 'start', request: 'r1' }, waits], expect: [] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FixtureError);
    expect((thrown as FixtureError).path).toEqual(['steps', 1, 'do']);
  });
});
