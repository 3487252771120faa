import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { LiveTelling } from '../judges/live-telling.js';
import { displayText } from '../text/display-text.js';
import type { ScenarioSession } from './scenario-session.js';
import { type ScenarioOutcome, scenarioOutcomes } from './scenario-outcomes.js';

/**
 * Tells each scenario's outcome as it is decided (`LiveTelling`, as the proxy's live verdict: about every `intervalMs`,
 * less often when judging takes long, so that sessions of 10⁴ messages never stall the others): the sessions are
 * judged so far, and a scenario that newly passed or failed is said on `to`. The returned function stops it.
 */
export function tellAsDecided(
  sessions: () => readonly ScenarioSession[],
  judge: JudgeOptions,
  to: NodeJS.WritableStream,
  intervalMs = 1000,
): () => void {
  const telling = new LiveTelling<ScenarioOutcome>({
    judge: () =>
      scenarioOutcomes(
        sessions().map((session) => ({ label: session.label, verdict: judgeSession(session.recorder.snapshot(), judge) })),
        judge,
      ).filter((outcome) => outcome.status === 'pass' || outcome.status === 'fail'),
    key: (outcome) => ({ about: outcome.scenario, says: `${outcome.status} ${outcome.cases.length}` }),
    tell: (outcome) =>
      to.write(
        `mcprely probe-client: ${outcome.status === 'pass' ? 'PASS' : 'FAIL'} ${outcome.scenario}: ${displayText(outcome.summary)}\n`,
      ),
    // The outcomes are still judged at the end.
    failed: (error) => to.write(`mcprely probe-client: telling outcomes as they are decided stopped (${displayText(String(error))})\n`),
    intervalMs,
  });
  telling.start();
  return () => telling.stop();
}
