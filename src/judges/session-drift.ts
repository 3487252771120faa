import { LineIndex } from '../document/line-index.js';
import { makeFinding, type Finding } from '../findings/finding.js';
import { DRIFT_RULES } from '../live/drift-rules.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { ResolvedOperation } from '../manifest/resolved-operation.js';
import type { JudgeOptions, RequestClaims } from './judge-options.js';
import type { JudgedCase } from './judgement.js';
import type { FindingPlace } from './session-rules.js';
import { cancelledByClosing, describeRequest, type SessionIndex, type SessionRequest } from './session-requests.js';
import type { SessionMessage } from './session-transcript.js';
import { METHODS } from '../protocol/methods.js';

/**
 * How one claim of a manifest fared in a recorded session: `seen` — a request of its operation exercised it and it
 * held; `contradicted` — the traffic shows otherwise (a drift finding at the claim's line); `inconclusive` — no
 * request exercised it (why). A claim the manifest leaves unset promises nothing and is not listed.
 */
export interface SessionClaim {
  readonly operation: string;
  /** The manifest field that makes the claim, and its value. */
  readonly field: string;
  readonly value: string;
  readonly status: 'seen' | 'contradicted' | 'inconclusive';
  /** What was seen (trace lines in it), or why nothing was. */
  readonly why: string;
}

export interface SessionDrift {
  readonly claims: readonly SessionClaim[];
  /** Each contradicted claim as a finding at its manifest line (rules drift-duration, drift-progress, drift-cancellation). */
  readonly findings: readonly Finding[];
}

/** The operation of the manifest a request of the client belongs to: the tool, prompt or resource it names, else its method. */
export function operationOf(manifest: LoadedManifest, request: SessionRequest): ResolvedOperation | undefined {
  if (request.from !== 'client') return undefined;
  const name = request.params['name'];
  const uri = request.params['uri'];
  return manifest.operations.find((operation) => {
    const spec = operation.spec;
    if (spec.direction === 'server-to-client' || spec.method !== request.method) return false;
    if (spec.method === METHODS.toolsCall || spec.method === METHODS.promptsGet) return spec.name === name;
    return spec.uri === undefined || spec.uri === uri;
  });
}

/** Per request, the timeouts and key argument its operation declares: what the client judges measure it against. */
export function manifestClaims(manifest: LoadedManifest): (request: SessionRequest) => RequestClaims | undefined {
  const cache = new Map<SessionRequest, RequestClaims | undefined>();
  return (request) => {
    if (cache.has(request)) return cache.get(request);
    const operation = operationOf(manifest, request);
    const number = (path: readonly string[]) => {
      const value = operation?.read(path);
      return typeof value === 'number' ? value : undefined;
    };
    const idle = number(['timeouts', 'idleMs']);
    const max = number(['timeouts', 'maxMs']);
    const key = operation?.read(['idempotency', 'keyArgument']);
    const claims =
      operation === undefined
        ? undefined
        : {
            ...(idle === undefined ? {} : { idleTimeoutMs: idle }),
            ...(max === undefined ? {} : { maxTimeoutMs: max }),
            ...(typeof key === 'string' ? { idempotencyKeyField: key } : {}),
          };
    cache.set(request, claims);
    return claims;
  };
}

/**
 * One claim judged on the requests of its operation: a case per request that exercised it. `shows: false` — it held,
 * but what was seen cannot show the claim true (silence after a cancellation does not show the work stopped): such
 * cases can contradict nothing and make the claim inconclusive, never seen.
 */
interface ClaimCase {
  readonly held: boolean;
  readonly why: string;
  readonly shows?: false;
}

/** Progress the server sent for a request while it was pending (before its answer and its cancellation). */
function pendingProgress(request: SessionRequest): SessionMessage[] {
  const until = Math.min(request.response?.at ?? Number.POSITIVE_INFINITY, request.cancelled?.at ?? Number.POSITIVE_INFINITY);
  return request.progress.filter((one) => one.from === 'server' && one.at <= until);
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** progress.minIntervalMs: the server's progress for a request comes no faster, on average, than one per interval. */
function minIntervalCase(request: SessionRequest, minMs: number): ClaimCase | undefined {
  const progress = pendingProgress(request);
  if (progress.length < 2) return undefined;
  const first = progress[0] as SessionMessage;
  const last = progress.at(-1) as SessionMessage;
  const average = (last.at - first.at) / (progress.length - 1);
  let shortest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < progress.length; index++)
    shortest = Math.min(shortest, (progress[index] as SessionMessage).at - (progress[index - 1] as SessionMessage).at);
  const what = `${progress.length} progress notifications for ${describeRequest(request)} (trace lines ${first.line}–${last.line})`;
  return average < minMs
    ? { held: false, why: `${what} came every ${ms(average)} on average (shortest gap ${ms(shortest)}), faster than one per ${minMs} ms` }
    : { held: true, why: `${what} came every ${ms(average)} on average` };
}

/** progress.maxIntervalMs: a pending request with a progress token never goes longer than the interval without progress. */
function maxIntervalCase(request: SessionRequest, maxMs: number, endedAt: number, toleranceMs: number): ClaimCase | undefined {
  if (request.progressToken === undefined) return undefined;
  const end = Math.min(request.response?.at ?? endedAt, request.cancelled?.at ?? endedAt);
  if (end - request.sent.at <= maxMs) return undefined;
  let last = request.sent;
  let longest = { from: request.sent, gap: 0 };
  for (const progress of pendingProgress(request)) {
    if (progress.at - last.at > longest.gap) longest = { from: last, gap: progress.at - last.at };
    last = progress;
  }
  if (end - last.at > longest.gap) longest = { from: last, gap: end - last.at };
  return longest.gap > maxMs + toleranceMs
    ? {
        held: false,
        why: `${describeRequest(request)} went ${ms(longest.gap)} without progress after trace line ${longest.from.line}, longer than ${maxMs} ms`,
      }
    : { held: true, why: `${describeRequest(request)} had progress at least every ${maxMs} ms (longest gap ${ms(longest.gap)})` };
}

/**
 * progress.emits: false — the server sends no progress for the operation, even when a request asks with a token;
 * true — a request that asks gets progress, at least before the idle timeout its operation declares (a quick call
 * needs none, so only one that outlived the idle timeout without progress contradicts it).
 */
function emitsCase(emits: boolean, request: SessionRequest, idleMs: number | undefined, endedAt: number): ClaimCase | undefined {
  const sent = request.progress.find((one) => one.from === 'server');
  if (!emits) {
    if (sent !== undefined)
      return { held: false, why: `the server sent progress for ${describeRequest(request)} (trace line ${sent.line})` };
    if (request.progressToken === undefined || request.response === undefined) return undefined;
    return { held: true, why: `${describeRequest(request)} asked for progress and got none` };
  }
  if (request.progressToken === undefined) return undefined;
  if (sent !== undefined) return { held: true, why: `${describeRequest(request)} asked for progress and got it (trace line ${sent.line})` };
  const lasted = Math.min(request.response?.at ?? endedAt, request.cancelled?.at ?? endedAt) - request.sent.at;
  if (idleMs === undefined || lasted <= idleMs) return undefined;
  return {
    held: false,
    why: `${describeRequest(request)} asked for progress and got none in ${ms(lasted)}, past its idle timeout of ${idleMs} ms`,
  };
}

/**
 * After a cancellation nothing of `kind` comes past the grace period: its response, or its progress. Progress after it
 * shows the work went on; silence shows no more than silence — a server may drop what stopped work would have sent
 * (the TypeScript SDK drops an aborted handler's progress), so `stopsWork` is never seen from silence, and after a
 * closed stream (2026-07-28) nothing could have come on it, so the response's silence shows nothing either.
 */
function silenceCase(request: SessionRequest, kind: 'response' | 'progress', graceMs: number, endedAt: number): ClaimCase | undefined {
  const cancelled = request.cancelled;
  if (cancelled === undefined || (request.response !== undefined && request.response.at <= cancelled.at)) return undefined;
  const after = cancelled.at + graceMs;
  const late =
    kind === 'response'
      ? [request.response].filter((one) => one !== undefined && one.at > after)
      : request.progress.filter((one) => one.at > after);
  const first = late[0];
  if (first !== undefined)
    return {
      held: false,
      why:
        `the server sent ${kind === 'response' ? 'its response' : 'progress'} for ${describeRequest(request)} ` +
        `${ms(first.at - cancelled.at)} after its cancellation (trace lines ${cancelled.line}, ${first.line})`,
    };
  if (endedAt < after) return undefined;
  const quiet = `nothing for ${describeRequest(request)} after its cancellation (trace line ${cancelled.line})`;
  if (kind === 'progress')
    return { held: true, shows: false, why: `${quiet}, but silence does not show the work stopped (name a status tool: probe.workStatus)` };
  if (cancelledByClosing(cancelled))
    return { held: true, shows: false, why: `${quiet}: the client closed its stream, on which nothing could come any more` };
  return { held: true, why: quiet };
}

/**
 * timeouts.maxMs as a claim about the operation: its calls end within it. A call answered later contradicts it, and
 * so does one still unanswered when its client cancelled it at the maximum (it needed more); a cancellation before
 * the maximum shows nothing of how long the work takes.
 */
function durationCase(request: SessionRequest, maxMs: number, toleranceMs: number): ClaimCase | undefined {
  const { response, cancelled } = request;
  if (cancelled !== undefined && (response === undefined || cancelled.at < response.at)) {
    const at = cancelled.at - request.sent.at;
    return at >= maxMs - toleranceMs
      ? {
          held: false,
          why: `${describeRequest(request)} was still running at ${ms(at)}, when its client cancelled it (trace line ${cancelled.line})`,
        }
      : undefined;
  }
  if (response === undefined) return undefined;
  const took = response.at - request.sent.at;
  return took > maxMs
    ? { held: false, why: `${describeRequest(request)} was answered after ${ms(took)} (trace line ${response.line})` }
    : { held: true, why: `${describeRequest(request)} was answered in ${ms(took)}` };
}

interface ClaimSpec {
  readonly rule: 'drift-progress' | 'drift-cancellation' | 'drift-duration';
  readonly path: readonly string[];
  /** The case of one request, when the claim (with this value) says something about it. */
  readonly judge: (value: unknown, request: SessionRequest, session: SessionIndex, options: JudgeOptions) => ClaimCase | undefined;
  readonly unexercised: string;
}

const CLAIMS: readonly ClaimSpec[] = [
  {
    rule: 'drift-duration',
    path: ['timeouts', 'maxMs'],
    judge: (value, request, _session, options) =>
      typeof value === 'number' ? durationCase(request, value, options.toleranceMs) : undefined,
    unexercised: 'no request of it was answered, or cancelled at its maximum',
  },
  {
    rule: 'drift-progress',
    path: ['progress', 'minIntervalMs'],
    judge: (value, request) => (typeof value === 'number' ? minIntervalCase(request, value) : undefined),
    unexercised: 'no request got two progress notifications',
  },
  {
    rule: 'drift-progress',
    path: ['progress', 'maxIntervalMs'],
    judge: (value, request, session, options) =>
      typeof value === 'number' ? maxIntervalCase(request, value, session.transcript.endedAt, options.toleranceMs) : undefined,
    unexercised: 'no request with a progress token lasted longer than the interval',
  },
  {
    rule: 'drift-progress',
    path: ['progress', 'emits'],
    judge: (value, request, session, options) =>
      typeof value === 'boolean'
        ? emitsCase(value, request, options.claimsFor?.(request)?.idleTimeoutMs ?? options.idleTimeoutMs, session.transcript.endedAt)
        : undefined,
    unexercised: 'no request asked for progress and got it, or outlived its idle timeout without it',
  },
  {
    rule: 'drift-cancellation',
    path: ['cancellation', 'suppressResponseAfterCancel'],
    judge: (value, request, session, options) =>
      value === true ? silenceCase(request, 'response', options.graceMs, session.transcript.endedAt) : undefined,
    unexercised: 'no request was cancelled before its answer (and watched past the grace period)',
  },
  {
    rule: 'drift-cancellation',
    path: ['cancellation', 'stopsWork'],
    judge: (value, request, session, options) =>
      value === 'immediately' ? silenceCase(request, 'progress', options.graceMs, session.transcript.endedAt) : undefined,
    unexercised: 'no request was cancelled before its answer (and watched past the grace period)',
  },
];

/**
 * What a recorded session shows of the manifest's claims about each operation it describes: how long its calls take,
 * progress rate and gaps, progress at all, silence after a cancellation — each claim the manifest makes, judged on every request of its
 * operation that exercised it, and each one the traffic contradicts a finding at the claim's manifest line. Pure.
 */
export function sessionDrift(manifest: LoadedManifest, session: SessionIndex, options: JudgeOptions, traceFile: string): SessionDrift {
  const byOperation = new Map<ResolvedOperation, SessionRequest[]>();
  for (const request of session.requests) {
    const operation = operationOf(manifest, request);
    if (operation === undefined) continue;
    const requests = byOperation.get(operation);
    if (requests === undefined) byOperation.set(operation, [request]);
    else requests.push(request);
  }
  const claims: SessionClaim[] = [];
  const findings: Finding[] = [];
  let lines: LineIndex | undefined;
  for (const operation of manifest.operations) {
    const requests = byOperation.get(operation) ?? [];
    for (const claim of CLAIMS) {
      const value = operation.read(claim.path);
      if (value === undefined) continue;
      const cases = requests.flatMap((request) => claim.judge(value, request, session, options) ?? []);
      const broken = cases.find((one) => !one.held);
      const field = claim.path.join('.');
      const base = { operation: operation.spec.name, field, value: String(value) };
      if (broken === undefined) {
        const showing = cases.filter((one) => one.shows !== false);
        const [first] = showing.length > 0 ? showing : cases;
        claims.push(
          first === undefined
            ? {
                ...base,
                status: 'inconclusive',
                why: requests.length === 0 ? 'the session has no request of this operation' : claim.unexercised,
              }
            : {
                ...base,
                status: showing.length > 0 ? 'seen' : 'inconclusive',
                why: showing.length > 1 ? `${showing.length} requests: ${first.why}; …` : first.why,
              },
        );
        continue;
      }
      claims.push({ ...base, status: 'contradicted', why: broken.why });
      const rule = DRIFT_RULES.find((one) => one.id === claim.rule);
      const span = operation.locate(claim.path, 'value');
      lines ??= new LineIndex(manifest.text);
      findings.push(
        makeFinding({
          ruleId: claim.rule,
          severity: rule?.severity ?? 'error',
          messageId: 'session',
          message: `${operation.spec.name}: ${field} is ${String(value)}, but in ${traceFile} ${broken.why}`,
          data: { operation: operation.spec.name, trace: traceFile },
          file: manifest.file,
          path: ['operations', operation.index, ...claim.path],
          range: { start: lines.position(span.start), end: lines.position(span.end) },
          ...(rule === undefined ? {} : { fix: rule.fix }),
        }),
      );
    }
  }
  return { claims, findings };
}

/** The claim of its operation a judge's failure speaks to: where the finding goes in the manifest (else the operation's name). */
const JUDGE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  'client-cancels-on-idle-timeout': ['timeouts', 'idleMs'],
  'client-enforces-maximum': ['timeouts', 'maxMs'],
  'client-retry-keeps-key': ['idempotency', 'keyArgument'],
  'server-silent-after-cancel': ['cancellation'],
  'server-progress-increases': ['progress'],
  'server-progress-for-active-requests': ['progress'],
};

/**
 * With a manifest, a failed case about a request of one of its operations points at that operation — the claim the
 * judge speaks to (its idle timeout, its key argument, …) — where a team fixes it; a case about no operation's request
 * (a stray response, a request of a tool the manifest does not describe) keeps its trace line.
 */
export function manifestPlacer(
  manifest: LoadedManifest,
  session: SessionIndex,
): (judge: string, one: JudgedCase) => FindingPlace | undefined {
  // The requests each trace line holds (a batch holds several).
  const byLine = new Map<number, Set<SessionRequest>>();
  for (const request of session.requests) {
    if (request.from !== 'client') continue;
    for (const message of [request.sent, request.response, request.cancelled, ...request.progress])
      if (message !== undefined) {
        const held = byLine.get(message.line);
        if (held === undefined) byLine.set(message.line, new Set([request]));
        else held.add(request);
      }
  }
  let lines: LineIndex | undefined;
  return (judge, one) => {
    // The operation a case is about: that of the requests its lines hold, when they all agree (a batch of calls to
    // several operations, or a request of none, keeps the case at its trace line).
    const operations = new Set(one.lines.flatMap((line) => [...(byLine.get(line) ?? [])]).map((request) => operationOf(manifest, request)));
    const [operation, ...others] = operations;
    if (operation === undefined || others.length > 0) return undefined;
    // The claim the judge speaks to, where the operation makes it (a timeout given by a flag is no claim of the manifest).
    const claimed = JUDGE_CLAIMS[judge];
    const path = claimed !== undefined && operation.read(claimed) !== undefined ? claimed : ['name'];
    const span = operation.locate(path, 'value');
    lines ??= new LineIndex(manifest.text);
    return {
      file: manifest.file,
      path: ['operations', operation.index, ...path],
      range: { start: lines.position(span.start), end: lines.position(span.end) },
    };
  };
}
