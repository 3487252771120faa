import type { SpecVersion } from '../spec/revisions.js';
import { cancelBeforeCompletion } from './checks/cancel-before-completion.js';
import { clientTimeouts } from './checks/client-timeouts.js';
import { getNotAllowed, sseHeaders } from './checks/http-transport.js';
import { idempotentReplay } from './checks/idempotent-replay.js';
import { ignoredCancellations } from './checks/ignored-cancellations.js';
import { describeMessage } from './checks/observe.js';
import { silenceFacts } from './checks/silence-judgement.js';
import { progressToCompletion } from './checks/progress.js';
import { serverDecidesTasks } from './checks/task-wire.js';
import { tasksOnTheWire } from './checks/tasks.js';
import { judgeWireHygiene } from './checks/wire-hygiene.js';
import { judgeRevision } from './checks/revision-judgement.js';
import { judgeToolsList } from './checks/tools-judgement.js';
import type { Connection } from './connection.js';
import { HttpConnection } from './http-connection.js';
import { type ListedTool, type PlanOptions, type ProbePlan, probePlan } from './probe-plan.js';
import {
  type CheckOutcome,
  type CheckResult,
  outcome,
  type ProbeCheck,
  type ProbeContext,
  type ProbeReport,
  type Watch,
} from './probe-types.js';
import { type Negotiation, ProbeSession } from './session.js';
import { StdioConnection } from './stdio-connection.js';
import { summariseTools, type ToolSummary } from './tool-summary.js';
import { WireLog } from './wire-log.js';
import { DEFAULT_TOLERANCE_MS } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { ProbeRecording } from './probe-recording.js';
import { type HttpEndpoint, redactedDeep, redactSecrets, secretsOf, shownEndpoint } from './request-headers.js';
import { traceOpenProblem } from '../recording/session-recorder.js';
import { basename } from 'node:path';
import { probeCheckDeclaration, putsCallInFlight } from './probe-check-catalog.js';
import { revision as revisionCheck } from './check-declarations/revision.js';
import { tools as toolsCheck } from './check-declarations/tools.js';
import { wire as wireCheck } from './check-declarations/wire.js';
import { foldJudgements, PROBE_JUDGED_PARTY, reportedJudgement } from './session-judgements.js';
import type { OnProbeEvent, ProbeEvent } from './probe-events.js';

/** The checks the probe runs, in order; `revision` first and `wire` last are decided from what the run saw. */
export const PROBE_CHECKS: readonly ProbeCheck[] = [
  progressToCompletion,
  cancelBeforeCompletion,
  clientTimeouts,
  tasksOnTheWire,
  ignoredCancellations,
  sseHeaders,
  getNotAllowed,
  idempotentReplay,
];

/** Why a run judged no request in flight (no check that puts a call in flight passed or failed): the first such check's own reason (exit 3, inconclusive). */
function whyInconclusive(results: readonly CheckResult[]): string {
  const unplayed = results.find((result) => putsCallInFlight(result.id) && result.status !== 'pass' && result.status !== 'fail');
  return unplayed?.summary ?? 'no check could pass or fail';
}

export interface ProbeOptions extends PlanOptions {
  /**
   * The program and its arguments (already split, run without a shell), or the endpoint and the headers added to each
   * request (their values never reach the report or the trace; the endpoint is named without credentials or query).
   */
  readonly target: { readonly stdio: readonly string[]; readonly shown: string } | HttpEndpoint;
  readonly specVersion?: SpecVersion;
  /** The probe's own budget for everything, in ms. */
  readonly maxTimeMs: number;
  /** Called before each check, for a progress display. */
  readonly onCheck?: (index: number, total: number, id: string) => void;
  /** Told as each check starts (with its limit on a tool) and ends (with its outcome), and the moment the long tool stalls. */
  readonly onEvent?: OnProbeEvent;
  /** Where to write the probe's session as a trace (`--record`), which `mcprely audit` judges again. */
  readonly record?: string;
}

/** A probe that could not run as asked: the server lists no such tool, or the tool may change state (exit 2). */
export interface ProbeUsageError {
  readonly usage: string;
}

const HANDSHAKE_MS = 10_000;

/**
 * Probes a live server: connects (running only the command or URL given), performs the revision's
 * handshake, lists the tools and chooses what to call (safely), then runs each check within the probe's own
 * budget. A defect that ends the connection fails the check that met it, with its true reason, and the later
 * checks are skipped with it. Whatever the server sends after a check ended is still that check's; it is
 * judged at the end. Only a failed handshake means the probe could not start: after it, the server is an MCP
 * server and what goes wrong is a failed check.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport | ProbeUsageError> {
  // The secrets the probe sends (its headers, the query), which a server may echo (a 401 body quoting the token it
  // refused): never in the report, nor in the trace.
  const secrets = 'url' in options.target ? secretsOf(options.target) : [];
  // What is told as the run goes holds what the server sent (a summary quoting its 401 body): redacted as the report is.
  const onEvent = options.onEvent;
  const told = onEvent === undefined ? options : { ...options, onEvent: (event: ProbeEvent) => onEvent(redactedDeep(event, secrets)) };
  return redactedDeep(await probeServer(told, secrets), secrets);
}

/** The probe itself (`runProbe`), its trace written without `secrets`; its report still holds what the server echoed. */
async function probeServer(options: ProbeOptions, secrets: readonly string[]): Promise<ProbeReport | ProbeUsageError> {
  const started = performance.now();
  const clock = () => performance.now() - started;
  const log = new WireLog(clock, 5000);
  const budgetLeft = () => options.maxTimeMs - clock();
  // Before anything runs: a trace that cannot be written is a usage error, and the server is not started for nothing.
  const recording = openRecording(options, secrets);
  if ('usage' in recording) return recording;
  const connection: Connection =
    'stdio' in options.target
      ? new StdioConnection(options.target.stdio, log, clock)
      : new HttpConnection(options.target, log, clock, Math.min(HANDSHAKE_MS, options.maxTimeMs));
  const target = 'stdio' in options.target ? options.target.shown : shownEndpoint(options.target.url);
  connection.recording = recording;
  const requested = options.specVersion ?? options.manifest?.manifest.specVersion;
  const base = {
    version: 3 as const,
    target,
    transport: connection.transport,
    ...(requested === undefined ? {} : { requestedRevision: requested }),
  };
  try {
    const session = new ProbeSession(connection, log);
    const opened = await within(session.open(requested, Math.min(HANDSHAKE_MS, options.maxTimeMs)), options.maxTimeMs);
    if (opened === undefined || !opened.ok) {
      const problem = opened?.reason ?? `the handshake did not finish within the probe's budget of ${options.maxTimeMs} ms`;
      return {
        ...base,
        revision: 'unknown',
        startedOk: false,
        problem,
        checks: [],
        observations: observations(connection),
        ...stderrOf(connection),
      };
    }
    const results: CheckResult[] = [revisionResult(opened.negotiation, log)];
    const from = log.entries.length;
    connection.owner = toolsCheck.id;
    const listed = await session.listTools(Math.min(HANDSHAKE_MS, Math.max(1, budgetLeft())));
    let plan: ProbePlan | undefined;
    let toolsOutcome: CheckOutcome;
    let summaries: ToolSummary[] | undefined;
    if (!('tools' in listed)) toolsOutcome = judgeToolsList(listed);
    else {
      summaries = summariseTools(listed.tools);
      const tools = listed.tools.filter((tool): tool is ListedTool => typeof (tool as { name?: unknown })?.name === 'string');
      const planned = probePlan(options, tools, serverDecidesTasks(opened.negotiation.negotiated, session.serverCapabilities));
      if (!planned.ok) return { usage: planned.usage };
      for (const note of planned.notes) log.note(note);
      plan = planned.plan;
      toolsOutcome = judgeToolsList({ tools });
    }
    results.push(resultOf(toolsCheck, toolsOutcome, log.entries.slice(from), 0));
    const run = new CheckRun(session, log, clock, options, opened.negotiation.negotiated);
    if (toolsOutcome.status === 'fail') run.fatalReported = connection.fatal !== undefined;
    for (const [index, check] of PROBE_CHECKS.entries()) {
      const position = { index, total: PROBE_CHECKS.length };
      results.push(await run.check(check, plan === undefined ? `not run: ${toolsOutcome.summary}` : plan, position));
    }
    // What is still on its way belongs to the check that caused it: wait a little, then judge it there.
    connection.owner = 'the end of the probe';
    const drain = Math.max(0, Math.min(options.graceMs, budgetLeft()));
    if (drain > 0 && connection.fatal === undefined) await new Promise((resolve) => setTimeout(resolve, drain));
    const judgedByChecks = run.judge(results);
    // A session the server opened is ended, as a client that is done with it does.
    const ended = connection instanceof HttpConnection ? await connection.endSession() : undefined;
    // The session judged as a proxied one is: the server's judges, each failure told at the check that drove it.
    const transcript = recording.end('the probe ended');
    // What may cross a cancellation: the probe's in-flight allowance, and however long the probe itself was held up.
    const allowance = Math.round(session.inFlightMs + connection.lag.total());
    const sessionJudgements = judgeSession(transcript, { graceMs: allowance, toleranceMs: DEFAULT_TOLERANCE_MS }).judgements.filter(
      (judgement) => judgement.party === PROBE_JUDGED_PARTY,
    );
    const judged = foldJudgements(judgedByChecks, sessionJudgements, (line) => recording.ownerOf(line), fixOf);
    const failed = judged.some((result) => result.status === 'fail') || sessionJudgements.some((one) => one.status === 'fail');
    const ranRequests = judged.some((result) => putsCallInFlight(result.id) && result.status === 'pass');
    return {
      ...base,
      revision: opened.negotiation.negotiated,
      startedOk: true,
      ...(plan === undefined
        ? {}
        : {
            plan: {
              tool: plan.longTool?.name ?? null,
              why: plan.longTool?.why ?? plan.noLongTool ?? '',
              mutation: plan.mutation?.name ?? null,
              taskTool: plan.taskTool?.name ?? null,
            },
          }),
      ...(summaries === undefined ? {} : { tools: summaries }),
      checks: judged,
      session: { messages: transcript.messages.length, graceMs: allowance, judgements: sessionJudgements.map(reportedJudgement) },
      observations: [
        ...observations(connection),
        ...(ended === undefined ? [] : [ended]),
        ...(recording.writeError === undefined ? [] : [`the trace stopped being written (${recording.writeError}): it is cut short`]),
      ],
      ...(failed || ranRequests ? {} : { inconclusive: `no request in flight was judged: ${whyInconclusive(judged)}` }),
      ...(run.stall === undefined ? {} : { stall: run.stall }),
      ...stderrOf(connection),
    };
  } finally {
    try {
      await connection.close();
    } finally {
      recording.end('the probe ended');
    }
  }
}

/** The probe's recording, writing the trace `--record` names; a usage error when that file cannot be written. */
function openRecording(options: ProbeOptions, secrets: readonly string[]): ProbeRecording | ProbeUsageError {
  // The trace names the server as the proxy's does: the program's name, or the endpoint without its credentials and
  // query (either may hold secrets or a user's folders).
  const server = 'stdio' in options.target ? basename(options.target.stdio[0] ?? '') : shownEndpoint(options.target.url);
  try {
    const redact = secrets.length === 0 ? undefined : (line: string) => redactSecrets(line, secrets);
    return new ProbeRecording('stdio' in options.target ? 'stdio' : 'streamable-http', server, options.record, redact);
  } catch (error) {
    return { usage: `cannot write the trace ${options.record}: ${traceOpenProblem(error)}` };
  }
}

/** What to change in the server when a check fails. */
function fixOf(id: string): string | undefined {
  return probeCheckDeclaration(id)?.fix;
}

/** The checks of one probe, run in turn: each within the budget left, each owning what its requests bring, even late. */
class CheckRun {
  readonly #watches = new Map<string, { watch: Watch; seen: number }>();
  readonly #measured: ProbeContext['measured'] = {};
  /** The defect that ended the connection has been reported as a check's failure. */
  fatalReported = false;

  /** The long tool stalled uncancelled in a check (what the later ones read). */
  get stall(): ProbeContext['measured']['stall'] {
    return this.#measured.stall;
  }

  constructor(
    readonly session: ProbeSession,
    readonly log: WireLog,
    readonly clock: () => number,
    readonly options: ProbeOptions,
    readonly revision: SpecVersion,
  ) {}

  /**
   * Runs one check, or says why it cannot run (`plan` is then that reason); tells its start (with its limit on a tool,
   * when it will call one) before anything else, and its end with its outcome (what comes late may still change it).
   */
  async check(check: ProbeCheck, plan: ProbePlan | string, position: { index: number; total: number }): Promise<CheckResult> {
    const connection = this.session.connection;
    const from = this.log.entries.length;
    const checkStart = this.clock();
    const left = this.options.maxTimeMs - checkStart;
    connection.owner = check.id;
    const runs = typeof plan !== 'string' && left > 0 && connection.fatal === undefined;
    const limit = runs ? check.limit?.(this.#contextOf(check.id, plan)) : undefined;
    this.options.onEvent?.({
      kind: 'check-started',
      ...position,
      check: check.id,
      title: check.title,
      ...(limit === undefined ? {} : { limit }),
    });
    this.options.onCheck?.(position.index, position.total, check.id);
    let result: CheckOutcome;
    if (typeof plan === 'string') result = outcome('inconclusive', plan);
    else if (left <= 0)
      result = outcome('inconclusive', `not run: the probe's budget of ${this.options.maxTimeMs} ms (--max-time) is spent`);
    else if (connection.fatal !== undefined)
      result = this.fatalReported
        ? outcome('inconclusive', `not run: ${connection.fatal}`)
        : outcome('fail', connection.fatal, [`the connection ended during ${connection.fatalOwner}, before this check could begin`]);
    else {
      result =
        (await within(check.run(this.#contextOf(check.id, plan)), left)) ??
        outcome(
          'inconclusive',
          `did not finish within the probe's remaining budget of ${Math.round(left)} ms: raise --max-time (now ${this.options.maxTimeMs} ms)`,
        );
    }
    // The defect that ended the connection is one failure, of the check that met it; later checks are inconclusive with it.
    if (connection.fatal !== undefined && !this.fatalReported) {
      this.fatalReported = true;
      if (result.status !== 'fail')
        result = outcome(
          'fail',
          connection.fatal,
          [`before that, the check had found: ${result.summary}`, ...result.details],
          result.watch,
        );
      else if (!result.summary.includes(connection.fatal)) result = { ...result, details: [...result.details, connection.fatal] };
    }
    // A check that did not fail saw nothing after its silence began: whatever comes for its requests, from now on or
    // already (on another request's stream, during its own last steps), fails it. A failed check reported what it saw.
    if (result.watch !== undefined)
      this.#watches.set(check.id, { watch: result.watch, seen: result.status === 'fail' ? lateCount(result.watch) : 0 });
    const reported = resultOf(check, result, this.log.entries.slice(from), Math.round(this.clock() - checkStart));
    this.options.onEvent?.({
      kind: 'check-ended',
      ...position,
      check: check.id,
      status: reported.status,
      summary: reported.summary,
      durationMs: reported.durationMs,
    });
    return reported;
  }

  /** What a check is given: the session, its plan, what earlier checks measured, the budget left, whom to tell. */
  #contextOf(owner: string, plan: ProbePlan): ProbeContext {
    return {
      session: this.session,
      log: this.log,
      plan,
      revision: this.revision,
      clock: this.clock,
      owner,
      measured: this.#measured,
      budgetLeft: () => this.options.maxTimeMs - this.clock(),
      tell: (event) => this.options.onEvent?.(event),
      ...('url' in this.options.target ? { reconnect: () => this.#reconnect(owner) } : {}),
    };
  }

  /** A fresh connection to the endpoint, opened with the revision this probe speaks (the tasks check's disconnect). */
  async #reconnect(owner: string): Promise<{ session: ProbeSession; close: () => Promise<void> } | { failed: string }> {
    if (!('url' in this.options.target)) return { failed: 'over stdio a new connection is a new process' };
    const left = Math.max(1, Math.min(HANDSHAKE_MS, this.options.maxTimeMs - this.clock()));
    const connection = new HttpConnection(this.options.target, this.log, this.clock, left);
    connection.owner = owner;
    const session = new ProbeSession(connection, this.log);
    const opened = await within(session.open(this.revision, left), left);
    if (opened?.ok === true && opened.negotiation.negotiated === this.revision) return { session, close: () => connection.close() };
    await connection.close();
    return {
      failed:
        opened === undefined
          ? `the fresh connection's handshake did not finish within ${left} ms`
          : opened.ok
            ? `the fresh connection negotiated ${opened.negotiation.negotiated}, not ${this.revision}`
            : opened.reason,
    };
  }

  /** The results with what came late judged where it belongs, and the wire check, which needs everything seen. */
  judge(results: readonly CheckResult[]): CheckResult[] {
    const connection = this.session.connection;
    const judged = results.map((result) => {
      const check = PROBE_CHECKS.find((candidate) => candidate.id === result.id);
      return judgeLate(result, this.#watches.get(result.id), check?.fix);
    });
    const failedOwners = new Set(judged.filter((result) => result.status === 'fail').map((result) => result.id));
    const calls = connection.allCalls().map((call) => ({
      id: call.id,
      owner: call.owner,
      repeated: call.inbox.repeatedResponses,
      mistyped: call.inbox.mistypedIds,
      failedOwner: failedOwners.has(call.owner),
    }));
    const ended = this.fatalReported ? undefined : connection.fatal;
    const wire = judgeWireHygiene({
      transport: connection.transport,
      garbage: connection.garbage,
      strays: connection.strays,
      straysDropped: connection.straysDropped,
      calls,
      ...(ended === undefined ? {} : { endedAfterChecks: ended }),
    });
    judged.push(resultOf(wireCheck, wire, [], 0));
    return judged;
  }
}

/** A check's outcome as a report entry: a failure carries the check's fix. */
function resultOf(
  check: { readonly id: string; readonly title: string; readonly basis: string; readonly fix: string },
  result: CheckOutcome,
  transcript: CheckResult['transcript'],
  durationMs: number,
): CheckResult {
  return {
    id: check.id,
    title: check.title,
    basis: check.basis,
    status: result.status,
    summary: result.summary,
    details: result.details,
    ...(result.status === 'fail' ? { fix: check.fix } : {}),
    ...(result.observed === undefined ? {} : { observed: result.observed }),
    transcript,
    durationMs,
  };
}

function revisionResult(negotiation: Negotiation, log: WireLog): CheckResult {
  return resultOf(revisionCheck, judgeRevision(negotiation), log.entries.slice(0, 40), 0);
}

/**
 * Messages about a check's cancelled requests that it did not report (after it ended, or on another request's
 * stream), and answers to its notifications, fail it after the fact, whenever they came.
 */
function judgeLate(result: CheckResult, watched: { watch: Watch; seen: number } | undefined, fix: string | undefined): CheckResult {
  if (watched === undefined || lateCount(watched.watch) === watched.seen) return result;
  const late: string[] = [];
  for (const call of watched.watch.calls) {
    const after = call.inbox.afterSilence.map(
      (received) =>
        describeMessage(call, received) +
        (received.stream !== undefined && received.stream !== call.id ? ` (on the response stream of request ${received.stream})` : ''),
    );
    if (after.length > 0)
      late.push(
        `the server sent ${call.inbox.afterSilenceCount > after.length ? `${call.inbox.afterSilenceCount} messages, first ` : ''}` +
          `${after.join(', ')} for the cancelled request ${call.id}, after its cancellation`,
      );
  }
  for (const notification of watched.watch.notifications) {
    if (notification.answer !== undefined)
      late.push(`the server answered its ${notification.method} (a notification gets no response): ${notification.answer.text}`);
  }
  // What came late is part of what the check observed: the claims are judged on it too.
  const facts = watched.watch.calls.map(silenceFacts);
  const observed = {
    ...result.observed,
    progressAfterCancel: facts.some((fact) => fact.progressAfterCancel === true),
    resultAfterCancel: facts.some((fact) => fact.resultAfterCancel === true),
    answeredCancellation: facts.some((fact) => fact.answeredCancellation === true),
  };
  if (result.status === 'fail') return { ...result, details: [...result.details, ...late], observed };
  return {
    ...result,
    observed,
    status: 'fail',
    summary: late[0] ?? 'the server sent something after the check ended',
    details: [...late.slice(1), `before that, the check had found: ${result.summary}`, ...result.details],
    ...(fix === undefined ? {} : { fix }),
  };
}

function lateCount(watch: Watch): number {
  return (
    watch.calls.reduce((sum, call) => sum + call.inbox.afterSilenceCount + call.inbox.onOtherStreams.length, 0) +
    watch.notifications.filter((notification) => notification.answer !== undefined).length
  );
}

async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms))));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the connection saw of the server as a whole. */
function observations(connection: Connection): string[] {
  const seen: string[] = [];
  if (connection.fatal !== undefined) seen.push(connection.fatal);
  return seen;
}

function stderrOf(connection: Connection): { stderr?: string } {
  return connection instanceof StdioConnection && connection.stderr !== '' ? { stderr: connection.stderr } : {};
}
