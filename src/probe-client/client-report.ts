import { STATUS_LABELS } from '../live/outcome.js';
import { displayText } from '../text/display-text.js';
import { plural } from '../text/plural.js';
import { CLIENT_PROFILES, likelyCauses } from './client-profiles.js';
import type { ScenarioCase, ScenarioOutcome } from './scenario-outcomes.js';

/** How many cases a scenario's report lists; the rest are counted. */
export const LISTED_CASES = 5;

/** What the server side of a session can never see, said with every report instead of passing it. */
export const NOT_OBSERVABLE_NOTE =
  'not observable from the server: whether the client told its caller (a promise rejected, an error shown) when it gave up; ' +
  'a client can cancel on the wire and leave its caller waiting, or tell its caller and never cancel';

/** The exit code of a run: 1 when a scenario or the session failed, 2 when nothing was exercised (no pass, no fail), else 0. */
export function exitCodeOfOutcomes(outcomes: readonly ScenarioOutcome[], failures: readonly ScenarioCase[]): 0 | 1 | 2 {
  if (failures.length > 0 || outcomes.some((one) => one.status === 'fail')) return 1;
  return outcomes.some((one) => one.status === 'pass') ? 0 : 2;
}

/** The known behaviours of the client's library (`--client`) that explain the failed cases' judges, each with its source line. */
function causeLines(profile: string | undefined, cases: readonly ScenarioCase[]): string[] {
  const library = CLIENT_PROFILES.find((one) => one.id === profile);
  if (library === undefined) return [];
  const judges = new Set(cases.filter((one) => one.status === 'fail').map((one) => one.judge));
  return [...judges].flatMap((judge) =>
    likelyCauses(profile, judge).map(
      (cause) =>
        `      likely cause (${library.library} ${library.version}${cause.when === undefined ? '' : `, ${cause.when}`}): ${cause.says} ` +
        `(${cause.source}; docs/client-profiles.md)`,
    ),
  );
}

function caseLine(one: ScenarioCase): string {
  const where = `${displayText(one.session)}, trace line ${one.lines.join(', ')}`;
  return `      ${one.status === 'pass' ? 'pass' : 'FAIL'} ${one.judge}: ${displayText(one.message)} (${where})`;
}

/** The report of a run: each scenario's outcome and the cases that decided it, the session's own failures, and what cannot be seen. */
export function clientReportLines(
  outcomes: readonly ScenarioOutcome[],
  failures: readonly ScenarioCase[],
  sessions: number,
  measuredAgainst: string,
  profile?: string,
): string[] {
  const lines = [`mcprely probe-client: ${plural(sessions, 'session')}; the client judged against ${measuredAgainst}`];
  for (const outcome of outcomes) {
    lines.push(
      `  ${STATUS_LABELS[outcome.status].padEnd(14)} ${outcome.scenario} (${plural(outcome.calls, 'call')}): ${displayText(outcome.summary)}`,
    );
    const shown = [...outcome.cases.filter((one) => one.status === 'fail'), ...outcome.cases.filter((one) => one.status === 'pass')];
    for (const one of shown.slice(0, LISTED_CASES)) lines.push(caseLine(one));
    if (shown.length > LISTED_CASES) lines.push(`      … and ${shown.length - LISTED_CASES} more`);
    lines.push(...causeLines(profile, outcome.cases));
  }
  if (failures.length > 0) {
    lines.push(`  the session itself (${plural(failures.length, 'failure')}):`);
    for (const one of failures.slice(0, LISTED_CASES)) lines.push(caseLine(one));
    if (failures.length > LISTED_CASES) lines.push(`      … and ${failures.length - LISTED_CASES} more`);
  }
  lines.push(`  ${NOT_OBSERVABLE_NOTE}`);
  const code = exitCodeOfOutcomes(outcomes, failures);
  if (code === 2)
    lines.push(
      '  nothing was exercised: no scenario passed or failed (call the scenario tools, and give the timeouts to judge them against)',
    );
  return lines;
}
