import type { Judgement } from '../../src/judges/judgement.js';
import type { ScenarioCase, ScenarioOutcome } from '../../src/probe-client/scenario-outcomes.js';

/** The JSON report of a run (--report-json). */
export interface ClientReport {
  readonly outcomes: ScenarioOutcome[];
  readonly sessionFailures: ScenarioCase[];
  readonly sessions: { readonly label: string; readonly judgements: readonly Judgement[] }[];
}

/** The server judges that failed in a run's sessions: the scenario server's own faults. */
export function serverFailures(report: ClientReport): string[] {
  return report.sessions.flatMap((session) =>
    session.judgements.filter((one) => one.party === 'server' && one.status === 'fail').map((one) => `${one.judge}: ${one.summary}`),
  );
}
