import type { JudgedCase, Judgement } from '../judges/judgement.js';
import { asserts } from './probe-check-catalog.js';
import type { CheckResult } from './probe-types.js';

/**
 * The judges the probe runs on its own session: the server's. The client judges are not run — the probe breaks the
 * client's rules on purpose (cancellations of unknown or answered requests, a request given up without waiting), so
 * what they would say is about the probe, not the server.
 */
export const PROBE_JUDGED_PARTY = 'server';

/** How many failed cases of one judge a check's details and the report keep (the count says how many there were). */
export const KEPT_CASES = 10;

/**
 * One verdict per rule: the probe's session judged by the same judges as a proxied session or an audited trace
 * (src/judges). A judge's failure about a request a check sent fails that check when the check asserts the same rule
 * (its declaration `asserts` it; `ownerOf` a line is the check that sent that message, or sent the request a response or
 * progress names; a message about no request of the probe has none), so a check never passes what the judge of
 * its rule failed; a check that failed already keeps its own reason. Any other failure stands as the judge's own
 * (the session's verdicts, the exit code). A judge that passed changes nothing: a check judges more than the judges
 * do (timing against the plan, tasks, replays).
 */
export function foldJudgements(
  results: readonly CheckResult[],
  judgements: readonly Judgement[],
  ownerOf: (line: number) => string | undefined,
  fixOf: (id: string) => string | undefined,
): CheckResult[] {
  const told = new Map<string, { lines: string[]; more: number }>();
  for (const judgement of judgements) {
    if (judgement.status !== 'fail') continue;
    for (const failed of judgement.cases) {
      if (failed.status !== 'fail') continue;
      const owner = failed.lines.map(ownerOf).find((id) => id !== undefined && asserts(id, judgement.judge));
      if (owner === undefined) continue;
      const entry = told.get(owner) ?? { lines: [], more: 0 };
      told.set(owner, entry);
      if (entry.lines.length < KEPT_CASES)
        entry.lines.push(`${failed.message} (judge ${judgement.judge}, session message ${failed.lines[0] ?? '?'})`);
      else entry.more++;
    }
  }
  return results.map((result) => {
    const entry = told.get(result.id);
    if (entry === undefined) return result;
    const lines = [...entry.lines, ...(entry.more === 0 ? [] : [`and ${entry.more} more such case(s)`])];
    if (result.status === 'fail') return { ...result, details: [...result.details, ...lines.map((line) => `also judged: ${line}`)] };
    const fix = result.fix ?? fixOf(result.id);
    return {
      ...result,
      status: 'fail',
      summary: `judged on the session: ${lines[0]}`,
      details: [...lines.slice(1), `before that, the check had found: ${result.summary}`, ...result.details],
      ...(fix === undefined ? {} : { fix }),
    };
  });
}

/** A judgement as a report keeps it: its first failed and passed cases, and how many it left out. */
export function reportedJudgement(judgement: Judgement): Judgement & { readonly casesLeftOut?: number } {
  const failed = judgement.cases.filter((one) => one.status === 'fail');
  const passed = judgement.cases.filter((one) => one.status === 'pass');
  const kept: JudgedCase[] = [...failed.slice(0, KEPT_CASES), ...passed.slice(0, KEPT_CASES)];
  const leftOut = judgement.cases.length - kept.length;
  return { ...judgement, cases: kept, ...(leftOut === 0 ? {} : { casesLeftOut: leftOut }) };
}
