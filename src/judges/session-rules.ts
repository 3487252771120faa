import { atLeast, makeFinding, type Finding, type Severity } from '../findings/finding.js';
import type { RuleDescriptor } from '../findings/rule-descriptor.js';
import { fact } from '../spec/revision-facts.js';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import { STATUS_LABELS } from '../live/outcome.js';
import { displayText } from '../text/display-text.js';
import type { JudgedCase, Judgement, JudgeBasis } from './judgement.js';
import type { Range } from '../document/position.js';
import type { SessionVerdict } from './judge-session.js';

export type { Severity } from '../findings/finding.js';

/** A judge as a rule of the report formats, with its page's words (docs/rules/<id>.md is rendered from them). */
export interface SessionRule extends RuleDescriptor {
  readonly docPage: string;
  readonly helpMarkdown: string;
}

interface RuleText {
  readonly id: string;
  readonly party: 'client' | 'server';
  readonly description: string;
  readonly rests: JudgeBasis;
  readonly fix: string;
  /** Where the fact's strength on the most deployed revision understates the rule (a MUST on the other), its severity. */
  readonly severity?: Severity;
  /** The revision whose statement of the fact the rule rests on, when not the most deployed one (where the rule is strict). */
  readonly cites?: SpecVersion;
}

/** The newest revision: where the HTTP rules that 2025-11-25 only allows become requirements. */
const NEWEST_REVISION = SPEC_VERSIONS[SPEC_VERSIONS.length - 1] as SpecVersion;

const TEXTS = [
  {
    id: 'server-silent-after-cancel',
    party: 'server',
    description: 'After the client cancels a request, the server sends nothing more for it: no response, no progress.',
    rests: { fact: 'receiver-stops' },
    fix: 'Stop the work when the cancellation arrives and drop its result and its progress (the SDKs give the handler an abort signal).',
  },
  {
    id: 'server-progress-increases',
    party: 'server',
    description: "Each request's progress values strictly increase.",
    rests: { fact: 'progress-increases' },
    fix: 'Send a progress value greater than the last one each time, even when the total is unknown.',
  },
  {
    id: 'server-progress-for-active-requests',
    party: 'server',
    description: 'Progress names only the token of a request the client sent and still waits for.',
    rests: { fact: 'progress-stops' },
    fix: "Send progress only with the token from the request's _meta.progressToken, and only before its final response.",
  },
  {
    id: 'server-answers-only-requests',
    party: 'server',
    description: 'Every response answers one pending request; a notification (a cancellation) is never answered.',
    rests: { fact: 'notification-no-response' },
    fix: 'Answer requests only, once each; treat a message without an id as a notification.',
  },
  {
    id: 'server-sse-headers',
    party: 'server',
    description: 'Every SSE response carries Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no.',
    rests: {
      lesson: 'Streamable HTTP',
      says: 'without no-cache and X-Accel-Buffering: no a proxy on the way may hold the events back, so progress arrives only with the answer',
    },
    fix: 'Send Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no on every SSE response.',
  },
  {
    id: 'server-messages-on-own-stream',
    party: 'server',
    description:
      "A request's response and progress travel on the stream of the POST that carried it (the GET stream only where the revision allows).",
    rests: { fact: 'request-scoped-notifications' },
    severity: 'error',
    cites: NEWEST_REVISION,
    fix:
      "Write a request's progress and result to its own response stream; when that stream is gone, drop them " +
      '(where closing is the cancellation, the request is over).',
  },
  {
    id: 'server-streams-progress',
    party: 'server',
    description: "A long request's progress reaches the client as the work runs, not all at once with its answer.",
    rests: { lesson: 'Proxy buffering', says: 'a server can stream correctly while a reverse proxy holds events in a buffer' },
    fix:
      'Flush each progress notification as it is written: no response logging, compression or buffering proxy on the stream ' +
      '(send Cache-Control: no-cache and X-Accel-Buffering: no, and turn buffering off in the proxy).',
  },
  {
    id: 'client-cancels-on-idle-timeout',
    party: 'client',
    description: "A request unanswered at the client's idle timeout is cancelled with the transport's signal.",
    rests: { fact: 'cancel-on-timeout' },
    fix: "On timeout, send notifications/cancelled (stdio, and HTTP where the revision says so) or close the request's stream, then stop waiting.",
  },
  {
    id: 'client-enforces-maximum',
    party: 'client',
    description: "A request unanswered at the client's maximum timeout is cancelled then, whatever progress came.",
    rests: { fact: 'maximum-timeout' },
    fix: 'Keep a maximum that progress never resets (the TypeScript SDK: maxTotalTimeout), and cancel when it passes.',
  },
  {
    id: 'client-request-ids-unique',
    party: 'client',
    description: 'The client never uses a request id twice in a session.',
    rests: { fact: 'request-id-unique' },
    fix: 'Give every request, a re-sent one too, an id the session has not used.',
  },
  {
    id: 'client-cancels-only-pending',
    party: 'client',
    description: 'The client cancels only requests it sent and has no answer for.',
    rests: { fact: 'cancel-in-flight-only' },
    fix: 'Do not cancel once the response has arrived (clear the abort signal or the timer when it does).',
  },
  {
    id: 'client-retry-keeps-key',
    party: 'client',
    description: 'A tool call the client gave up on and sends again carries the same idempotency key and a new request id.',
    rests: {
      lesson: 'Idempotency keys',
      says: 'an idempotency key identifies the business intent: a retry with the same key and arguments returns the first result instead of running again',
    },
    fix: 'Make the key once per intent, before the first attempt, and send it with every retry under a new request id.',
  },
  {
    id: 'client-resumes-only-where-supported',
    party: 'client',
    description: 'The client resumes a stream with Last-Event-ID only on a revision that supports resumption.',
    rests: { fact: 'last-event-id-resumption' },
    severity: 'error',
    cites: NEWEST_REVISION,
    fix:
      "Where the revision has no resumption, send a broken stream's request again under a new request id instead of resuming " +
      'with Last-Event-ID.',
  },
  {
    id: 'client-resumes-only-pending',
    party: 'client',
    description: 'The client resumes (Last-Event-ID) only the stream of a request it has not cancelled and has no answer for.',
    rests: { fact: 'cancel-in-flight-only' },
    fix: 'Stop resuming a stream once its request is cancelled or answered (drop its resumption token with the request).',
  },
  {
    id: 'client-cancels-with-revision-signal',
    party: 'client',
    description:
      "Over Streamable HTTP the client cancels with its revision's signal: a POSTed notifications/cancelled, or closing the request's stream.",
    rests: { fact: 'http-cancel-signal' },
    severity: 'error',
    cites: NEWEST_REVISION,
    fix:
      "Where closing the request's stream is the cancellation, abort the request's HTTP response; where the revision asks for " +
      'notifications/cancelled, POST it: closing a stream there is a disconnect, not a cancellation.',
  },
  {
    id: 'client-recovers-lost-request',
    party: 'client',
    description:
      'A request whose stream broke before its answer is recovered: sent again under a new id, resumed where the revision allows, ' +
      'or cancelled there — never just dropped.',
    rests: { fact: 'reissue-after-broken-stream' },
    fix:
      'When a response stream ends without the answer, resume it (Last-Event-ID) where the revision allows, else send the request ' +
      'again under a new id; a request given up on is cancelled, so that the server stops its work.',
  },
] as const satisfies readonly RuleText[];

/** The id of a session judge: the catalog's cross-references (probe checks, scenarios) name judges by this type. */
export type SessionJudgeId = (typeof TEXTS)[number]['id'];

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

export const SESSION_RULES: readonly SessionRule[] = (TEXTS as readonly RuleText[]).map((text) => {
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

export const SESSION_RULE_IDS: ReadonlySet<string> = new Set(SESSION_RULES.map((rule) => rule.id));

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
