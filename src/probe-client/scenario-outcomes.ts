import type { SessionJudgeId } from '../judges/judge-catalog.js';
import type { JudgeOptions } from '../judges/judge-options.js';
import type { SessionVerdict } from '../judges/judge-session.js';
import type { SessionIndex, SessionRequest } from '../judges/session-requests.js';
import type { SessionMessage } from '../judges/session-transcript.js';
import type { CheckStatus } from '../live/outcome.js';
import { fact } from '../spec/revision-facts.js';
import { decidedBy, judgedBy, type Scenario, SCENARIOS, scenarioNamed } from './scenarios.js';
import { METHODS } from '../protocol/methods.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

/** One session of the scenario server as judged: its label (and trace, when recorded) and the judges' verdict. */
export interface JudgedSession {
  readonly label: string;
  readonly verdict: SessionVerdict;
}

/** A case that decided a scenario: the judge's, in the session and at the trace lines it rests on. */
export interface ScenarioCase {
  readonly judge: string;
  readonly status: 'pass' | 'fail';
  readonly message: string;
  readonly session: string;
  readonly lines: readonly number[];
}

/** What a scenario showed of the client: pass or fail only from cases a judge decided; else inconclusive, or not observable. */
export interface ScenarioOutcome {
  readonly scenario: string;
  readonly status: CheckStatus;
  readonly summary: string;
  /** How many times the client called it. */
  readonly calls: number;
  readonly cases: readonly ScenarioCase[];
  /** Why the scenario cannot be played in these sessions at all (a stream to drop over stdio); its status is then not-observable. */
  readonly notApplicable?: string;
}

/** The judge that says whether a client cancelled a call it already had the answer to. */
const ONLY_PENDING: SessionJudgeId = 'client-cancels-only-pending';

function scenarioOf(request: SessionRequest): Scenario | undefined {
  return request.from === 'client' && request.method === METHODS.toolsCall ? scenarioNamed(request.params['name']) : undefined;
}

/** Each trace line of the session that is about a scenario call: its request, answer, cancellation, progress and streams. */
function linesOfScenarios(session: SessionIndex): Map<number, string> {
  const owner = new Map<number, string>();
  const streams = new Map((session.transcript.streams ?? []).map((stream) => [stream.id, stream]));
  const byMessage = new Map<SessionMessage, string>();
  const take = (name: string, ...lines: (number | undefined)[]) => {
    for (const line of lines) if (line !== undefined && !owner.has(line)) owner.set(line, name);
  };
  const takeStream = (name: string, id: string | undefined) => {
    const stream = id === undefined ? undefined : streams.get(id);
    if (stream !== undefined) take(name, stream.opened.line, stream.response?.line, stream.closed?.line);
  };
  for (const request of session.requests) {
    const scenario = scenarioOf(request);
    if (scenario === undefined) continue;
    take(scenario.name, request.sent.line, request.response?.line, request.cancelled?.line, ...request.progress.map((one) => one.line));
    takeStream(scenario.name, request.sent.stream);
    for (const message of [request.response, ...request.progress]) if (message !== undefined) byMessage.set(message, scenario.name);
  }
  for (const { notification, request } of session.cancellations) {
    const scenario = request === undefined ? undefined : scenarioOf(request);
    if (scenario !== undefined) take(scenario.name, notification.message.line);
  }
  // A resumed stream belongs to the call whose event it resumed after.
  for (const stream of streams.values()) {
    const resumed = stream.lastEventId === undefined ? undefined : session.serverEvents.get(stream.lastEventId);
    const name =
      resumed === undefined
        ? undefined
        : (byMessage.get(resumed) ?? (resumed.stream === undefined ? undefined : owner.get(streams.get(resumed.stream)?.opened.line ?? 0)));
    if (name !== undefined) takeStream(name, stream.id);
  }
  return owner;
}

/** Each session's line owners, read once however many scenarios (and the session's own failures) ask. */
const OWNERS = new WeakMap<SessionIndex, Map<number, string>>();

function ownersOf(session: SessionIndex): Map<number, string> {
  let owners = OWNERS.get(session);
  if (owners === undefined) {
    owners = linesOfScenarios(session);
    OWNERS.set(session, owners);
  }
  return owners;
}

/**
 * Where closing the stream is the cancellation, the server ends the stream with the answer: the client has no way
 * left to cancel an answered call on the wire, so whether it would is not observable. The reason, in such a session.
 */
function answeredUnobservable(session: SessionIndex): string | undefined {
  if (session.transcript.transport !== TRACE_TRANSPORT['streamable-http'] || session.revision === undefined) return undefined;
  if (fact(session.revision, 'http-cancel-signal').value !== 'close-stream') return undefined;
  return (
    `${ONLY_PENDING}: not observable on ${session.revision} over HTTP, where closing the stream is the cancellation and the ` +
    'server ends the stream with the answer: the client has no way left to cancel an answered call'
  );
}

/** Why a scenario cannot be played in any of these sessions: one that drops an HTTP stream, in sessions all over stdio. */
function notApplicableIn(scenario: Scenario, sessions: readonly JudgedSession[]): string | undefined {
  if (scenario.httpOnly !== true || sessions.length === 0) return undefined;
  if (sessions.some(({ verdict }) => verdict.session.transcript.transport === TRACE_TRANSPORT['streamable-http'])) return undefined;
  return 'not applicable over stdio: it drops an HTTP stream (run probe-client with --listen or --run to play it)';
}

/**
 * A call that had its answer and no cancellation after it, watched for the grace period: the client did not cancel
 * what it had the answer to (a case the cancellation judge cannot make, since it judges only cancellations sent).
 */
function answeredCases(session: SessionIndex, label: string, options: JudgeOptions, name: string): ScenarioCase[] {
  if (answeredUnobservable(session) !== undefined) return [];
  const cancelledOnes = new Set(session.cancellations.map((one) => one.request));
  const cases: ScenarioCase[] = [];
  for (const request of session.requests) {
    if (scenarioOf(request)?.name !== name || request.response === undefined) continue;
    if (cancelledOnes.has(request) || request.cancelled !== undefined) continue;
    const watched = session.transcript.endedAt - request.response.at;
    if (watched < options.graceMs) continue;
    cases.push({
      judge: ONLY_PENDING,
      status: 'pass',
      message:
        `${name} (id ${JSON.stringify(request.id)}) was answered and the client sent no cancellation for it ` +
        `in the ${Math.round(watched)} ms watched after`,
      session: label,
      lines: [request.response.line],
    });
  }
  return cases;
}

/** Each scenario's outcome from the judges' cases about its calls, in every session the client opened. */
export function scenarioOutcomes(sessions: readonly JudgedSession[], options: JudgeOptions): ScenarioOutcome[] {
  return SCENARIOS.map((scenario) => {
    const cases: ScenarioCase[] = [];
    const undecided: string[] = [];
    let observable = false;
    let calls = 0;
    for (const { label, verdict } of sessions) {
      const called = verdict.session.requests.filter((request) => scenarioOf(request) === scenario).length;
      if (called === 0) continue;
      calls += called;
      const owner = ownersOf(verdict.session);
      const unobservable = answeredUnobservable(verdict.session);
      for (const judgement of verdict.judgements) {
        if (!judgedBy(scenario, judgement.judge)) continue;
        const decisive = decidedBy(scenario, judgement.judge);
        let decided = false;
        for (const one of judgement.cases)
          if (one.lines.some((line) => owner.get(line) === scenario.name)) {
            decided = true;
            cases.push({ judge: judgement.judge, status: one.status, message: one.message, session: label, lines: one.lines });
          }
        if (!decided && decisive && judgement.judge === ONLY_PENDING && unobservable !== undefined) {
          undecided.push(unobservable);
          continue;
        }
        if (decisive && judgement.status !== 'not-observable') observable = true;
        // Why it did not decide: the judge's own reason when it judged nothing, else that nothing was about these calls.
        if (!decided && decisive && judgement.status !== 'fail')
          undecided.push(`${judgement.judge}: ${judgement.status === 'pass' ? 'no case about these calls' : judgement.summary}`);
      }
      if (scenario.judges.includes(ONLY_PENDING)) cases.push(...answeredCases(verdict.session, label, options, scenario.name));
    }
    const failed = cases.filter((one) => one.status === 'fail');
    const decided = cases.filter((one) => one.status === 'pass' && decidedBy(scenario, one.judge));
    const base = { scenario: scenario.name, calls, cases };
    const notApplicable = calls === 0 ? notApplicableIn(scenario, sessions) : undefined;
    if (notApplicable !== undefined) return { ...base, status: 'not-observable', summary: notApplicable, notApplicable };
    if (calls === 0) return { ...base, status: 'inconclusive', summary: 'the client never called it' };
    if (failed.length > 0)
      return {
        ...base,
        status: 'fail',
        summary:
          failed.length === 1 ? (failed[0] as ScenarioCase).message : `${failed.length} cases: ${(failed[0] as ScenarioCase).message}; …`,
      };
    // A pass only from a judge that shows what the scenario is for (a cancellation at the timeout, not only its signal).
    if (decided.length > 0)
      return {
        ...base,
        status: 'pass',
        summary: (decided[0] as ScenarioCase).message + (cases.length > 1 ? ` (and ${cases.length - 1} more)` : ''),
      };
    const why = [...new Set(undecided)].slice(0, 3).join('; ');
    return {
      ...base,
      status: observable ? 'inconclusive' : 'not-observable',
      summary: `called ${calls} time(s), but nothing the client did decided it (${why})`,
    };
  });
}

/**
 * The client's failed cases no scenario's judges took: about the session itself (a reused id, a handshake), or
 * another judge's about a call. The server judges are left out: the scenario server is mcprely's own.
 */
export function sessionFailures(sessions: readonly JudgedSession[]): ScenarioCase[] {
  const failures: ScenarioCase[] = [];
  for (const { label, verdict } of sessions) {
    const owner = ownersOf(verdict.session);
    for (const judgement of verdict.judgements.filter((one) => one.party === 'client'))
      for (const one of judgement.cases)
        if (
          one.status === 'fail' &&
          !one.lines.some((line) => {
            const scenario = scenarioNamed(owner.get(line));
            return scenario !== undefined && judgedBy(scenario, judgement.judge);
          })
        )
          failures.push({ judge: judgement.judge, status: 'fail', message: one.message, session: label, lines: one.lines });
  }
  return failures;
}
