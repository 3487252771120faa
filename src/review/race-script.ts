import type { Fixture, FixtureParameters, Step } from '../fixtures/fixture-types.js';
import type { RetryClass } from '../reference/classify-retry.js';
import type { RequestEnd, ScriptRun } from '../simulator/script-run.js';
import type { Transport } from '../protocol/transports.js';
import type { ReviewContext } from './review-context.js';
import type { RaceRow } from './review-types.js';

/**
 * Runs a race row's script on the reference implementation (the simulator's `runScript`). The caller gives it,
 * so that review stays pure: it writes scripts and reads their runs, and never runs one itself.
 */
export type RaceRunner = (script: Fixture) => ScriptRun;

/** What a race row is written from: the operation's review context on one transport, with its fixture parameters. */
export interface RaceInput {
  readonly context: ReviewContext;
  readonly transport: Transport;
  readonly parameters: FixtureParameters;
  readonly retry: RetryClass;
  readonly progress: boolean;
}

/** One row of a race table as a script: its steps (the fixtures' step language), and the row read from the script's run. */
export interface RaceScript {
  readonly steps: readonly Step[];
  /** The row's columns from the run (its diagram is the run's transcript, drawn by the table). */
  readonly read: (run: ScriptRun) => Omit<RaceRow, 'mermaid'>;
}

/** The request every request and subscription row starts at 0 ms, with a progress token when the operation reports progress. */
export function startStep(input: RaceInput): Step {
  return { at: 0, do: 'start', request: RACE_REQUEST, ...(input.progress ? { progressToken: 'p1' } : {}) };
}

/** The request a race row plays. */
export const RACE_REQUEST = 'r1';
/** The task a task row plays. */
export const RACE_TASK = 't1';

/** How the row's request ended (every request row starts it). */
export function requestEnd(run: ScriptRun): RequestEnd {
  const end = run.requests.get(RACE_REQUEST);
  if (end === undefined) throw new Error(`the race script never started ${RACE_REQUEST}`);
  return end;
}
