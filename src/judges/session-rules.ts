import { atLeast, makeFinding, type Finding, type Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { fact } from '../spec/revision-facts.js';
import { MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { STATUS_LABELS } from '../live/outcome.js';
import { displayText } from '../text/display-text.js';
import type { JudgeDeclaration } from './define-judge.js';
import { JUDGE_DECLARATIONS } from './judge-catalog.js';
import type { JudgedCase, Judgement, JudgeBasis } from './judgement.js';
import type { Range } from '../document/position.js';
import type { SessionVerdict } from './judge-session.js';

export type { Severity } from '../findings/finding.js';

/** A judge as a rule of the report formats, with its page's words (docs/rules/<id>.md is rendered from them). */
export interface SessionRule extends RuleDescriptor {
  readonly docPage: string;
  readonly helpMarkdown: string;
}

/** The id of a session judge (declared in the judges' catalog). */
export type { SessionJudgeId } from './judge-catalog.js';

/** MUST and MUST NOT are errors; SHOULD and the lesson warnings. */
function severityOf(rests: JudgeBasis): Severity {
  if (!('fact' in rests)) return 'warn';
  const strength = fact(MOST_DEPLOYED_REVISION, rests.fact).strength;
  return strength === 'MUST' || strength === 'MUST NOT' ? 'error' : 'warn';
}

function basisText(rests: JudgeBasis, cites?: SpecVersion): string {
  if ('fact' in rests) {
    const revision = cites ?? MOST_DEPLOYED_REVISION;
    const stated = fact(revision, rests.fact);
    return `the specification (${revision === MOST_DEPLOYED_REVISION ? '' : `${revision}, `}${stated.page}, fact \`${rests.fact}\`): ${stated.says}`;
  }
  return `the reliability lesson, section “${rests.lesson}”: ${rests.says}`;
}

export const SESSION_RULES: readonly SessionRule[] = JUDGE_DECLARATIONS.map((text: JudgeDeclaration) => {
  const rationale = `Rests on ${basisText(text.rests, text.cites)}. Judged on the messages of a real session, so it binds the ${text.party}.`;
  return {
    id: text.id,
    severity: text.severity ?? severityOf(text.rests),
    description: text.description,
    rationale,
    fix: text.fix,
    tags: ['session', text.party],
    docPage: `docs/rules/${text.id}.md`,
    helpMarkdown: [
      text.description,
      '',
      `**Why.** ${rationale}`,
      '',
      `**Fix.** ${text.fix}`,
      '',
      (text.party === 'server'
        ? 'Judged by `mcprely audit <trace.jsonl>` on a recorded session, by `mcprely proxy` as it relays one, and by `mcprely probe` ' +
          "on its own session with the server (a failure there also fails the probe's check that asserts the rule for that request). "
        : 'Judged by `mcprely audit <trace.jsonl>` on a recorded session and by `mcprely proxy` as it relays one. ') +
        'A judge passes only when the session exercised it (a cancelled request, a request that outlived the timeout); otherwise it is ' +
        'inconclusive.',
    ].join('\n'),
  };
});

/** The severity of a judge's failures: its rule's (MUST and MUST NOT errors, SHOULD and the lesson warnings). */
export function judgeSeverity(judge: string): Severity {
  return SESSION_RULES.find((rule) => rule.id === judge)?.severity ?? 'error';
}

/**
 * The one exit rule of every command that judges sessions (audit, probe-client): a failed case fails the run when its
 * rule's severity reaches the command's `--fail-severity`. The commands differ only in that threshold's default.
 */
export function failsRun(judge: string, failSeverity: Severity): boolean {
  return atLeast(judgeSeverity(judge), failSeverity);
}

/** Where a finding about a failed case goes instead of its trace line: a file (the manifest), its pointer and range. */
export interface FindingPlace {
  readonly file: string;
  readonly path: readonly (string | number)[];
  readonly range: Range;
}

/**
 * Each failed case of a verdict as a finding at its trace line — or, where `place` puts it (a manifest given: the
 * claim of the request's operation), there, its message naming the trace line.
 */
export function sessionFindings(
  verdict: SessionVerdict,
  file: string,
  place?: (judge: string, one: JudgedCase) => FindingPlace | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const judgement of verdict.judgements) {
    const rule = SESSION_RULES.find((candidate) => candidate.id === judgement.judge);
    const severity = judgeSeverity(judgement.judge);
    for (const one of judgement.cases) {
      if (one.status !== 'fail') continue;
      const line = one.lines[0] ?? 1;
      const placed = place?.(judgement.judge, one);
      findings.push(
        makeFinding({
          ruleId: judgement.judge,
          severity,
          messageId: 'default',
          message: placed === undefined ? one.message : `${one.message} (${file}, line ${line})`,
          data: { party: judgement.party, lines: one.lines.join(','), ...(placed === undefined ? {} : { trace: file }) },
          file: placed?.file ?? file,
          path: placed?.path ?? '',
          range: placed?.range ?? { start: { line, column: 1 }, end: { line, column: 1 } },
          ...(rule === undefined ? {} : { fix: rule.fix }),
        }),
      );
    }
  }
  return findings;
}

/** The judgements as report lines: each judge's status and summary. */
export function judgementLines(judgements: readonly Judgement[]): string[] {
  return judgements.map((one) => `  ${STATUS_LABELS[one.status].padEnd(14)} ${one.judge} (${one.party}): ${displayText(one.summary)}`);
}
