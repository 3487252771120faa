import { failsRun, judgeSeverity, type Severity } from '../judges/session-rules.js';
import { STATUS_LABELS } from '../live/outcome.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { CLIENT_PROFILES, type ClientUnderTest, likelyCauses } from './client-profiles.js';
import type { ScenarioCase, ScenarioOutcome } from './scenario-outcomes.js';
import type { SessionSummary } from './session-summary.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

/** How many cases a scenario's report lists; the rest are counted. */
export const LISTED_CASES = 5;

/** What the server side of a session can never see, said with every report instead of passing it. */
export const NOT_OBSERVABLE_NOTE =
  'not observable from the server: whether the client told its caller (a promise rejected, an error shown) when it gave up; ' +
  'a client can cancel on the wire and leave its caller waiting, or tell its caller and never cancel';

/** probe-client's default `--fail-severity`: a scenario's failure is what the command is run for, a warning included. */
export const PROBE_CLIENT_FAIL_SEVERITY: Severity = 'warn';

/** The failed cases of a run: every scenario's, then the session's own. */
function failedCases(outcomes: readonly ScenarioOutcome[], failures: readonly ScenarioCase[]): ScenarioCase[] {
  return [...outcomes.flatMap((one) => one.cases.filter((each) => each.status === 'fail')), ...failures];
}

/**
 * The exit code of a run, by the rule audit shares (`failsRun`): 1 when a failed case's rule reaches `failSeverity`,
 * 2 when nothing was exercised (no pass, no fail), else 0.
 */
export function exitCodeOfOutcomes(
  outcomes: readonly ScenarioOutcome[],
  failures: readonly ScenarioCase[],
  failSeverity: Severity = PROBE_CLIENT_FAIL_SEVERITY,
): 0 | 1 | 2 {
  const failed = failedCases(outcomes, failures);
  if (failed.some((one) => failsRun(one.judge, failSeverity))) return 1;
  return failed.length > 0 || outcomes.some((one) => one.status === 'pass') ? 0 : 2;
}

/** The known behaviours of the client's library (`--client`) that explain the failed cases' judges, each with its source line. */
function causeLines(client: ClientUnderTest | undefined, cases: readonly ScenarioCase[]): string[] {
  const library = CLIENT_PROFILES.find((one) => one.id === client?.profile);
  if (library === undefined || client === undefined) return [];
  const judges = new Set(cases.filter((one) => one.status === 'fail').map((one) => one.judge));
  // The profile was read from one version; another version under test may have moved or changed the lines.
  const version =
    client.version === undefined
      ? `lines of ${library.version}`
      : client.version === library.version
        ? `${library.version}, the version under test`
        : `lines of ${library.version}; the client under test is ${displayText(client.version)}, where they may differ`;
  return [...judges].flatMap((judge) =>
    likelyCauses(client.profile, judge).map(
      (cause) =>
        `      likely cause (${library.library}, ${version}${cause.when === undefined ? '' : `; ${cause.when}`}): ${cause.says} ` +
        `(${cause.source}; docs/client-profiles.md)`,
    ),
  );
}

const SEVERITY_WORDS: Readonly<Record<Severity, string>> = { error: 'error', warn: 'warning', info: 'info' };

function caseLine(one: ScenarioCase): string {
  const where = `${displayText(one.session)}, trace line ${one.lines.join(', ')}`;
  const status = one.status === 'pass' ? 'pass' : `FAIL (${SEVERITY_WORDS[judgeSeverity(one.judge)]})`;
  return `      ${status} ${one.judge}: ${displayText(one.message)} (${where})`;
}

/** One line per session: its trace (or label), the revision it spoke, the transport, and the client as it named itself. */
function sessionLine(session: SessionSummary): string {
  const transport = session.transport === TRACE_TRANSPORT['streamable-http'] ? 'Streamable HTTP' : 'stdio';
  const revision = session.revision ?? 'revision not shown (no handshake, no protocol version)';
  const client = session.clientInfo === undefined ? '' : `; the client named itself ${displayText(session.clientInfo)}`;
  return `  ${displayText(session.label)}: ${revision} over ${transport}${client}`;
}

export interface ClientReportInput {
  readonly outcomes: readonly ScenarioOutcome[];
  readonly failures: readonly ScenarioCase[];
  readonly sessions: readonly SessionSummary[];
  readonly measuredAgainst: string;
  readonly client?: ClientUnderTest;
  readonly failSeverity?: Severity;
  /** With --run: how the client ended, when it called no scenario (its exit and last line on stderr). */
  readonly clientEndedEarly?: string;
}

/** The report of a run: each scenario's outcome and the cases that decided it, the session's own failures, and what cannot be seen. */
export function clientReportLines(input: ClientReportInput): string[] {
  const { outcomes, failures, sessions } = input;
  const failSeverity = input.failSeverity ?? PROBE_CLIENT_FAIL_SEVERITY;
  const lines = [`mcprely probe-client: ${plural(sessions.length, 'session')}; the client judged against ${input.measuredAgainst}`];
  for (const session of sessions.slice(0, LISTED_CASES)) lines.push(sessionLine(session));
  if (sessions.length > LISTED_CASES) lines.push(`  … and ${sessions.length - LISTED_CASES} more sessions`);
  if (input.clientEndedEarly !== undefined) lines.push(`  ${displayText(input.clientEndedEarly)}`);
  for (const outcome of outcomes) {
    const label = outcome.notApplicable === undefined ? STATUS_LABELS[outcome.status] : 'NOT APPLICABLE';
    lines.push(`  ${label.padEnd(14)} ${outcome.scenario} (${plural(outcome.calls, 'call')}): ${displayText(outcome.summary)}`);
    const shown = [...outcome.cases.filter((one) => one.status === 'fail'), ...outcome.cases.filter((one) => one.status === 'pass')];
    for (const one of shown.slice(0, LISTED_CASES)) lines.push(caseLine(one));
    if (shown.length > LISTED_CASES) lines.push(`      … and ${shown.length - LISTED_CASES} more`);
    lines.push(...causeLines(input.client, outcome.cases));
  }
  if (failures.length > 0) {
    lines.push(`  the session itself (${plural(failures.length, 'failure')}):`);
    for (const one of failures.slice(0, LISTED_CASES)) lines.push(caseLine(one));
    if (failures.length > LISTED_CASES) lines.push(`      … and ${failures.length - LISTED_CASES} more`);
  }
  lines.push(`  ${NOT_OBSERVABLE_NOTE}`);
  const code = exitCodeOfOutcomes(outcomes, failures, failSeverity);
  const failed = failedCases(outcomes, failures);
  if (code === 0 && failed.length > 0)
    lines.push(
      `  exit 0: every failure above is below --fail-severity ${SEVERITY_WORDS[failSeverity]} ` +
        `(${[...new Set(failed.map((one) => one.judge))].join(', ')})`,
    );
  if (code === 2)
    lines.push(
      '  nothing was exercised: no scenario passed or failed (call the scenario tools, and give the timeouts to judge them against)',
    );
  return lines;
}
