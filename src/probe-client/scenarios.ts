import type { SessionJudgeId } from '../judges/judge-catalog.js';

/**
 * The scenarios of `mcprely probe-client`: each a tool a client calls, whose server side misbehaves in one way a
 * client's timeouts, cancellation and reconnects must handle, and the judges that decide what the client did.
 * Pure: a scenario's plan is data (when to send progress, when and how to finish); `scenario-call.ts` runs it.
 */

/** The client's timeouts under test (what the host claims), and how long a call that never ends is held at most. */
export interface ScenarioTiming {
  readonly idleMs?: number;
  readonly maxMs?: number;
  /** A call no timeout ends is answered (an error saying so) after this long, so that a session can end (ms). */
  readonly holdMs: number;
}

/** How a call ends by the server's hand: its result, an error, or its stream dropped without an answer (HTTP). */
export type Finish = 'result' | 'error' | 'drop';

/** What the server does with one call: progress (when the call carries a token) and how it ends. */
export interface ScenarioPlan {
  /** Progress every this many ms while the call runs (the first one after one interval). */
  readonly progressEveryMs?: number;
  /** How many progress notifications at most (absent: until the call ends). */
  readonly progressCount?: number;
  /** When the server ends the call, and how; absent: it never does (held until the client ends it, or `holdMs`). */
  readonly finishAtMs?: number;
  readonly finish?: Finish;
  /** After a drop: when the work finishes anyway (where a broken stream does not end the request, its answer waits for a resumption). */
  readonly answerAfterDropMs?: number;
  /** Whether the call's SSE events carry ids (what a client resumes after). */
  readonly eventIds: boolean;
  /**
   * The SSE `retry:` field on a stream that will be dropped with ids to resume after: how long the client waits
   * before it reconnects. Without it clients wait their own default (1 s in the TypeScript SDKs), which a 2 s timeout
   * does not leave room for.
   */
  readonly retryMs?: number;
}

/**
 * A scenario as the catalog declares it: its name (the tool's, and its id in `mcprely rules`), its tool, what it
 * exercises of a client and the judges that decide it (by their typed ids); its page is rendered from these.
 */
export interface Scenario {
  readonly name: string;
  /** What the tool does, for the person or the agent that calls it (sent as the tool's description). */
  readonly description: string;
  /** What of a client it exercises, in a line (its catalog entry). */
  readonly exercises: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** The judges whose cases about this scenario's calls count toward its outcome (any of their failures fails it). */
  readonly judges: readonly SessionJudgeId[];
  /** Those of `judges` that show what the scenario is for: it passes only on a case one of them decided. */
  readonly decisive: readonly SessionJudgeId[];
  /** Only on Streamable HTTP (a stream to drop); over stdio the call is answered at once with an error saying so. */
  readonly httpOnly?: boolean;
  plan(args: Readonly<Record<string, unknown>>, timing: ScenarioTiming): ScenarioPlan;
}

/** The interval of the scenarios' progress: a third of the idle timeout (so that progress keeps a call alive), within 50 ms to 1 s. */
export function progressInterval(timing: ScenarioTiming): number {
  return timing.idleMs === undefined ? 500 : Math.min(1000, Math.max(50, Math.round(timing.idleMs / 3)));
}

/**
 * A stream dropped half a progress interval after its first progress. With event ids the stream tells the client to
 * reconnect half an interval after the drop (`retry:`), and the work goes on and answers one interval after the drop
 * (where a broken stream does not end the request, the answer waits for the resumption): at five sixths of the idle
 * timeout (three intervals), after the reconnection and before the timeout even when progress does not reset it, so
 * that a client that resumes as told gets it without a race. Without ids nothing can be resumed, and the work is never
 * answered.
 */
export function dropPlan(timing: ScenarioTiming, eventIds: boolean, retryMs?: number): ScenarioPlan {
  const every = progressInterval(timing);
  const finishAtMs = Math.round(every * 1.5);
  return {
    progressEveryMs: every,
    progressCount: 1,
    finishAtMs,
    finish: 'drop',
    ...(eventIds ? { answerAfterDropMs: finishAtMs + every, retryMs: retryMs ?? Math.max(25, Math.round(every / 2)) } : {}),
    eventIds,
  };
}

function wholeArgument(args: Readonly<Record<string, unknown>>, name: string, fallback: number, max: number): number {
  const value = args[name];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(max, Math.round(value)) : fallback;
}

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * What every scenario but `slow_write` is: it changes nothing, so a client may send it again without a key (as it MUST
 * after a broken stream on 2026-07-28) — the retry judge leaves read-only tools out.
 */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * The judges every call's timeout decides (the idle timeout, the maximum, the signal they cancel with), and those of
 * any call's stream (a resumption, where the revision has none or of a call that is over).
 */
const TIMEOUT_JUDGES: readonly SessionJudgeId[] = [
  'client-cancels-on-idle-timeout',
  'client-enforces-maximum',
  'client-cancels-with-revision-signal',
  'client-resumes-only-where-supported',
  'client-resumes-only-pending',
  'client-recovers-lost-request',
];
const TIMEOUTS: readonly SessionJudgeId[] = ['client-cancels-on-idle-timeout', 'client-enforces-maximum'];
const DROPS: readonly SessionJudgeId[] = [
  'client-recovers-lost-request',
  'client-resumes-only-where-supported',
  'client-resumes-only-pending',
];
const ANSWERED: readonly SessionJudgeId[] = ['client-cancels-only-pending'];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'never_answers',
    exercises: "A call that never ends: the client cancels it at its idle timeout, with its transport's signal.",
    description:
      'Never answers and sends no progress. Call it once and let your client time out: mcprely checks that the client then cancels the ' +
      "call with its transport's signal (notifications/cancelled, or closing the request's stream) within the tolerance of its timeout.",
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    judges: TIMEOUT_JUDGES,
    decisive: TIMEOUTS,
    plan: () => ({ eventIds: true }),
  },
  {
    name: 'answers_after',
    exercises:
      'A call answered after a delay: the client does not cancel what it has the answer to, and cancels at its timeout what it has not.',
    description:
      'Answers after `ms` milliseconds (default 200). Call it with a delay shorter than your timeout: the client must not cancel a call ' +
      'it has the answer to (an abort signal fired after the answer, say); with a longer delay, it must cancel at its timeout.',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'number', minimum: 0, description: 'how long before the answer (ms)' } },
      additionalProperties: false,
    },
    annotations: READ_ONLY,
    judges: [...TIMEOUT_JUDGES, 'client-cancels-only-pending'],
    decisive: [...ANSWERED, ...TIMEOUTS],
    plan: (args, timing) => ({ finishAtMs: wholeArgument(args, 'ms', 200, timing.holdMs), finish: 'result', eventIds: true }),
  },
  {
    name: 'progress_forever',
    exercises: 'A call that sends progress forever: progress may reset the idle timeout, but the maximum ends the call.',
    description:
      'Sends progress (when the call asks for it with a progress token) and never answers. Call it with progress on: progress may ' +
      'reset your idle timeout, but your maximum timeout must end the call, and the client must cancel it then.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    judges: TIMEOUT_JUDGES,
    decisive: TIMEOUTS,
    plan: (_args, timing) => ({ progressEveryMs: progressInterval(timing), eventIds: true }),
  },
  {
    name: 'progress_then_finish',
    exercises: 'A call that sends progress, then answers: the idle timeout reset by progress (or not), and the maximum.',
    description:
      'Sends `steps` progress notifications (default 5), one every `intervalMs`, then answers. Call it with progress on: a client that ' +
      'resets its idle timeout on progress gets the answer; one that does not cancels at its idle timeout (both are allowed). With a ' +
      'maximum shorter than the whole, the client must cancel at the maximum.',
    inputSchema: {
      type: 'object',
      properties: {
        steps: { type: 'number', minimum: 0, description: 'how many progress notifications (default 5)' },
        intervalMs: { type: 'number', minimum: 1, description: 'the time between them (ms)' },
      },
      additionalProperties: false,
    },
    annotations: READ_ONLY,
    judges: [...TIMEOUT_JUDGES, 'client-cancels-only-pending'],
    decisive: [...TIMEOUTS, ...ANSWERED],
    plan: (args, timing) => {
      const every = wholeArgument(args, 'intervalMs', progressInterval(timing), 60_000) || 1;
      const steps = wholeArgument(args, 'steps', 5, 1000);
      return {
        progressEveryMs: every,
        progressCount: steps,
        finishAtMs: steps * every + Math.ceil(every / 2),
        finish: 'result',
        eventIds: true,
      };
    },
  },
  {
    name: 'fails',
    exercises: 'A call answered with an error: the client does not cancel a call that has its answer.',
    description: 'Answers with a JSON-RPC error after 100 ms. The client must not cancel a call that has its answer, an error included.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    judges: [...TIMEOUT_JUDGES, 'client-cancels-only-pending'],
    decisive: ANSWERED,
    plan: () => ({ finishAtMs: 100, finish: 'error', eventIds: true }),
  },
  {
    name: 'drop_stream_resumable',
    exercises: 'A stream dropped with event ids (HTTP): the client resumes where the revision allows, else sends the call again.',
    description:
      'Streamable HTTP: sends progress on an SSE stream whose events carry ids, then drops the stream without the answer. Where the ' +
      'revision allows resumption the client may resume with Last-Event-ID (the answer comes on the resumed stream); where it does not, ' +
      'it must send the call again under a new request id. It must never resume the stream of a call it cancelled or has the answer to. ' +
      'The stream advises reconnecting after half a progress interval (SSE retry:); `retryMs` advises longer, as a server that polls does: ' +
      'a client whose timeout ends first must cancel, and then not resume.',
    inputSchema: {
      type: 'object',
      properties: { retryMs: { type: 'number', minimum: 0, description: 'the SSE retry: the stream advises before it is dropped (ms)' } },
      additionalProperties: false,
    },
    annotations: READ_ONLY,
    judges: TIMEOUT_JUDGES,
    decisive: DROPS,
    httpOnly: true,
    plan: (args, timing) =>
      dropPlan(timing, true, typeof args['retryMs'] === 'number' ? wholeArgument(args, 'retryMs', 0, timing.holdMs) : undefined),
  },
  {
    name: 'drop_stream_unresumable',
    exercises: 'A stream dropped without event ids (HTTP): the client sends the call again under a new id, or cancels it.',
    description:
      'Streamable HTTP: sends progress on an SSE stream whose events carry no id, then drops the stream without the answer: nothing ' +
      'can be resumed. The client must send the call again under a new request id, or time out and cancel it.',
    inputSchema: NO_ARGUMENTS,
    annotations: READ_ONLY,
    judges: TIMEOUT_JUDGES,
    decisive: DROPS,
    httpOnly: true,
    plan: (_args, timing) => dropPlan(timing, false),
  },
  {
    name: 'slow_write',
    exercises: 'A slow destructive write: a client that retries keeps its idempotency key and takes a new request id.',
    description:
      'A slow destructive write carrying an idempotency key: it answers only after three idle timeouts (or never, when no timeout is ' +
      'known). A client that times out and sends it again must keep the same `idempotencyKey` and use a new request id; a call ' +
      "with a key already seen gets the first call's answer.",
    inputSchema: {
      type: 'object',
      properties: { idempotencyKey: { type: 'string', description: 'one key per intent, kept on every retry' }, path: { type: 'string' } },
      required: ['idempotencyKey'],
    },
    annotations: { destructiveHint: true, idempotentHint: false },
    judges: [...TIMEOUT_JUDGES, 'client-retry-keeps-key', 'client-request-ids-unique'],
    decisive: ['client-retry-keeps-key', ...TIMEOUTS],
    plan: (_args, timing) =>
      timing.idleMs === undefined ? { eventIds: true } : { finishAtMs: timing.idleMs * 3, finish: 'result', eventIds: true },
  },
];

/** Whether the judge's cases about the scenario's calls count toward its outcome. */
export function judgedBy(scenario: Scenario, judge: string): boolean {
  return scenario.judges.some((one) => one === judge);
}

/** Whether the judge shows what the scenario is for (a pass needs a case of one such judge). */
export function decidedBy(scenario: Scenario, judge: string): boolean {
  return scenario.decisive.some((one) => one === judge);
}

export function scenarioNamed(name: unknown): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.name === name);
}
