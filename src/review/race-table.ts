import type { Fixture, FixtureKind, FixtureParameters } from '../fixtures/fixture-types.js';
import { protocolOf } from '../policy/method-protocol.js';
import { emitsProgress, retryClassOf } from '../policy/predicates.js';
import type { Transport } from '../protocol/transports.js';
import { listenRaces } from './listen-races.js';
import { sequenceDiagram } from './mermaid.js';
import type { RaceInput, RaceRunner, RaceScript } from './race-script.js';
import { requestRaces } from './request-races.js';
import type { ReviewContext } from './review-context.js';
import type { RaceRow, RaceTable } from './review-types.js';
import { taskRaces } from './task-races.js';

/** An operation's race tables, one for each transport it is offered on. */
export type RaceTablesOf = (context: ReviewContext, parameters: FixtureParameters) => RaceTable[];

/** Race tables kept for one review at most (cleared when full). */
const TABLES_KEPT = 1000;

/**
 * The race tables of one review: the event orders every review must decide, for each transport the operation
 * is offered on, each a script run by `run` on the reference implementation with this operation's policy, so
 * the table shows what this policy yields rather than what it should.
 */
export function raceTables(run: RaceRunner): RaceTablesOf {
  // The rows depend on the policy, the transports and the revision, never on the operation's name or
  // description: operations that share a policy share their tables (a manifest of many alike is reviewed fast).
  const known = new Map<string, RaceTable[]>();
  return (context, parameters) => {
    const { name: _name, description: _description, ...policy } = context.operation;
    const key = JSON.stringify([context.specVersion, context.transports, policy, parameters]);
    const kept = known.get(key);
    if (kept !== undefined) return kept;
    const tables = context.transports.map((transport) => raceTable(run, context, parameters, transport));
    if (known.size >= TABLES_KEPT) known.clear();
    known.set(key, tables);
    return tables;
  };
}

function raceTable(run: RaceRunner, context: ReviewContext, parameters: FixtureParameters, transport: Transport): RaceTable {
  const input: RaceInput = {
    context,
    transport,
    parameters,
    retry: retryClassOf(context.operation).classification,
    progress: emitsProgress(context.operation),
  };
  const protocol = protocolOf(context.operation);
  // Each row's script is a fixture of the operation; its kind is a label (the parameters say whether it runs as a task).
  const [kind, scripts]: [FixtureKind, RaceScript[]] =
    protocol === 'task'
      ? ['task-cancel-ack-then-worker-checkpoint', taskRaces(input)]
      : protocol === 'listen'
        ? ['stdio-cancel-before-completion', listenRaces(input)]
        : ['stdio-cancel-before-completion', requestRaces(input)];
  return { transport, rows: scripts.map((script) => raceRow(run, script, scriptFixture(input, kind, script))) };
}

function raceRow(run: RaceRunner, script: RaceScript, fixture: Fixture): RaceRow {
  const played = run(fixture);
  return { ...script.read(played), mermaid: sequenceDiagram(played.transcript) };
}

function scriptFixture(input: RaceInput, kind: FixtureKind, script: RaceScript): Fixture {
  const { operation, specVersion } = input.context;
  return {
    mcprelyFixture: 1,
    id: 'race',
    kind,
    title: 'race',
    operation: operation.name,
    method: operation.method,
    transport: input.transport,
    specVersion,
    parameters: input.parameters,
    steps: script.steps,
    expect: [],
  };
}
