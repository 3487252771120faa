import { closeSync, openSync } from 'node:fs';
import { type Readable, Writable } from 'node:stream';
import type { Severity } from '../findings/finding.js';
import type { JudgeOptions } from '../judges/judge-options.js';
import { DEFAULT_GRACE_MS, DEFAULT_TOLERANCE_MS } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { manifestClaims } from '../judges/session-drift.js';
import { sessionFindings } from '../judges/session-rules.js';
import type { TraceHeader } from '../judges/trace-format.js';
import { fileReport } from '../lint/file-report.js';
import { type LintResult, lintResult } from '../lint/lint-result.js';
import { splitCommand } from '../probe/command-line.js';
import type { ClientUnderTest } from '../probe-client/client-profiles.js';
import { exitCodeOfOutcomes } from '../probe-client/client-report.js';
import { ScenarioHttpServer } from '../probe-client/http-server.js';
import type { ScenarioSession } from '../probe-client/scenario-session.js';
import {
  type JudgedSession,
  type ScenarioCase,
  type ScenarioOutcome,
  scenarioOutcomes,
  sessionFailures,
} from '../probe-client/scenario-outcomes.js';
import type { ScenarioTiming } from '../probe-client/scenarios.js';
import { serveStdio } from '../probe-client/stdio-server.js';
import { tellAsDecided } from '../probe-client/tell-as-decided.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';
import { traceOpenProblem } from '../recording/session-recorder.js';
import { displayText } from '../text/display-text.js';
import type { SessionJudgeOptions } from './audit.js';
import { type ClientRun, runClient } from './client-process.js';
import { parseListen } from './listen-address.js';
import { type ListenerAllowances, listenerGuard } from './listener-guard.js';
import { readOptionalManifest } from './manifest-input.js';

/** Something that ends a run when it settles (with the reason, such as a signal's name), and a way to stop waiting for it. */
export interface Interruption {
  readonly promise: Promise<string>;
  readonly off: () => void;
}

/**
 * How to meet the client and judge it: `mcprely probe-client`'s options as values. Give exactly one of `stdio`,
 * `run`, and `listen` without `run`.
 */
export interface ProbeClientOptions extends ListenerAllowances {
  /** Serve one session over these streams (a host started this process as an MCP server). */
  readonly stdio?: { readonly input: Readable; readonly output: Writable };
  /** Serve Streamable HTTP at `[host:]port` (loopback unless told; default 127.0.0.1 on a free port with `run`). */
  readonly listen?: string;
  /** Start this client (no shell) with the endpoint URL as its last argument and in MCPRELY_PROBE_URL, judge it, stop. */
  readonly run?: string;
  /** The client's timeouts to judge it against, the tolerance and grace, the idempotency key's argument. */
  readonly judge?: SessionJudgeOptions;
  /** Judge each call against its operation's timeouts in this manifest (operations named after the scenario tools). */
  readonly manifest?: string;
  /** Write each session to a trace (later sessions numbered: t.2.jsonl). */
  readonly record?: string;
  /** Answer a call nothing ended after this long, so that a session can end (ms; default 120 000). */
  readonly holdMs?: number;
  /** With `run`: stop the client if it has not exited after this long (ms; default 300 000). */
  readonly waitMs?: number;
  /** The client library under test, and its version when known: a failure names its known behaviour. */
  readonly client?: ClientUnderTest;
  /** A failed case fails the run (exit 1) when its rule is at least this severe (default `warn`). */
  readonly failSeverity?: Severity;
  /**
   * Called when the run starts waiting for its end (a session over `stdio` ending, the client started by `run`
   * exiting, or nothing with `listen` alone): what it returns ends the run early (the CLI's: SIGINT or SIGTERM).
   * Without it, `listen` alone never ends.
   */
  readonly interruption?: () => Interruption;
  /**
   * Where what happens along the way is told, a line at a time: the scenarios decided so far, where it listens,
   * how the client ended, refused requests, the client's own standard error. Default: nowhere.
   */
  readonly messages?: NodeJS.WritableStream;
}

/** A session judged, with the header of its trace. */
export interface JudgedClientSession extends JudgedSession {
  readonly header: TraceHeader;
}

/** The client judged, or why the run could not start. */
export type ProbeClientOutcome =
  | {
      readonly ok: true;
      /** Each scenario: its status, summary and cases. */
      readonly outcomes: readonly ScenarioOutcome[];
      /** Failures of a session that belong to no scenario. */
      readonly failures: readonly ScenarioCase[];
      /** Each session, labelled by its trace (or its own label) and judged. */
      readonly sessions: readonly JudgedClientSession[];
      /** How the client started by `run` ended, and its last line on stderr. */
      readonly clientRun?: ClientRun;
      /** The client ended before calling any scenario: how, in words. */
      readonly clientEndedEarly?: string;
      /** Traces that could not be written from the start (the session is still judged). */
      readonly traceProblems: readonly string[];
      /** Traces that stopped being written: the trace and why. */
      readonly traceWriteErrors: readonly { readonly trace: string; readonly problem: string }[];
      /** What the client was judged against, in words. */
      readonly measuredAgainst: string;
      /** The sessions' findings, one file report per session. */
      readonly result: LintResult;
      /** 0 when every exercised scenario passed, 1 when one failed at `failSeverity`, 2 when nothing was exercised. */
      readonly exitCode: 0 | 1 | 2;
    }
  | { readonly ok: false; readonly problem: string };

const DEFAULT_HOLD_MS = 120_000;
const DEFAULT_WAIT_MS = 300_000;

/** The trace of the session at `index`: the path given for the first, numbered before the extension for the others. */
export function sessionTracePath(record: string | undefined, index: number): string | undefined {
  if (record === undefined || index === 0) return record;
  const dot = record.lastIndexOf('.');
  return dot > record.lastIndexOf('/') && dot > 0 ? `${record.slice(0, dot)}.${index + 1}${record.slice(dot)}` : `${record}.${index + 1}`;
}

/** What is wrong with the ways given to meet the client, if anything (checked before anything starts). */
export function probeClientModeProblem(
  options: Pick<ProbeClientOptions, 'stdio' | 'listen' | 'run' | 'allowHosts' | 'allowOrigins'>,
): string | undefined {
  const stdio = options.stdio !== undefined;
  const modes = [stdio, options.listen !== undefined && options.run === undefined, options.run !== undefined].filter(Boolean).length;
  if (modes !== 1) return 'give one way to meet the client: --stdio, --listen <[host:]port>, or --run "<client command>"';
  if (stdio && (options.allowHosts !== undefined || options.allowOrigins !== undefined))
    return '--allow-host and --allow-origin widen an HTTP listener: give them with --listen or --run';
  return undefined;
}

/** What the client is judged against, in words. */
function measuredAgainst(options: ProbeClientOptions, judge: JudgeOptions): string {
  const parts = [
    judge.idleTimeoutMs === undefined ? undefined : `an idle timeout of ${judge.idleTimeoutMs} ms`,
    judge.maxTimeoutMs === undefined ? undefined : `a maximum of ${judge.maxTimeoutMs} ms`,
    options.manifest === undefined ? undefined : `the timeouts of ${displayText(options.manifest)}`,
  ].filter((part) => part !== undefined);
  return `${parts.length === 0 ? 'no timeout (give --idle-timeout and --max-timeout)' : parts.join(', ')}, tolerance ${judge.toleranceMs} ms`;
}

/** The ended sessions, each labelled by its trace (else its own label) and judged. */
function judgeSessions(
  sessions: readonly ScenarioSession[],
  judge: JudgeOptions,
  traces: (index: number) => string | undefined,
): JudgedSession[] {
  return sessions.map((session, index) => ({
    label: traces(index) ?? session.label,
    verdict: judgeSession(session.end('the run ended'), judge),
  }));
}

/**
 * Judges an MCP client: serves an MCP server whose tools are scenarios (over `stdio`, or Streamable HTTP at
 * `listen` or for the client started by `run`) and judges what the client does with them: its timeouts,
 * cancellation, progress and reconnects. Writes the traces asked for; prints nothing (see `messages`).
 */
export async function probeClient(options: ProbeClientOptions): Promise<ProbeClientOutcome> {
  const mode = probeClientModeProblem(options);
  if (mode !== undefined) return { ok: false, problem: `error: ${mode}\n` };
  const manifest = readOptionalManifest(options.manifest);
  if (manifest !== undefined && !manifest.ok) return { ok: false, problem: manifest.report };
  const given: JudgeOptions = { toleranceMs: DEFAULT_TOLERANCE_MS, graceMs: DEFAULT_GRACE_MS, ...options.judge };
  const judge: JudgeOptions = manifest === undefined ? given : { ...given, claimsFor: manifestClaims(manifest.manifest) };
  const timing: ScenarioTiming = {
    holdMs: options.holdMs ?? DEFAULT_HOLD_MS,
    ...(given.idleTimeoutMs === undefined ? {} : { idleMs: given.idleTimeoutMs }),
    ...(given.maxTimeoutMs === undefined ? {} : { maxMs: given.maxTimeoutMs }),
  };
  const context: RunContext = {
    options,
    judge,
    given,
    messages: options.messages ?? new Writable({ write: (_chunk, _encoding, done) => done() }),
  };
  try {
    // The trace is opened before anything starts, so that a path that cannot be written stops the run at once.
    if (options.record !== undefined) closeSync(openSync(options.record, 'a'));
    if (options.stdio !== undefined) return await runStdio(options.stdio, context, timing);
    return await runHttp(context, timing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall === 'open')
      return {
        ok: false,
        problem: `error: cannot write the trace ${displayText(options.record ?? '')}: ${displayText(traceOpenProblem(error))}\n`,
      };
    throw error;
  }
}

interface RunContext {
  readonly options: ProbeClientOptions;
  /** The options the sessions are judged with (the manifest's claims included). */
  readonly judge: JudgeOptions;
  /** The options as given, defaults filled (what the report says the client was measured against). */
  readonly given: JudgeOptions;
  readonly messages: NodeJS.WritableStream;
}

/** A promise that never settles and a no-op, for a run no one can interrupt. */
const NEVER: Interruption = { promise: new Promise(() => undefined), off: () => undefined };

async function runStdio(
  streams: NonNullable<ProbeClientOptions['stdio']>,
  context: RunContext,
  timing: ScenarioTiming,
): Promise<ProbeClientOutcome> {
  const served = serveStdio(streams.input, streams.output, timing, context.options.record);
  const stopTelling = tellAsDecided(() => [served.session], context.judge, context.messages);
  const interruption = context.options.interruption?.() ?? NEVER;
  await Promise.race([served.ended, interruption.promise]);
  interruption.off();
  stopTelling();
  streams.input.destroy();
  return finish([served.session], context);
}

async function runHttp(context: RunContext, timing: ScenarioTiming): Promise<ProbeClientOutcome> {
  const { options, judge, messages } = context;
  let argv: string[] = [];
  if (options.run !== undefined) {
    try {
      argv = splitCommand(options.run);
    } catch (error) {
      return { ok: false, problem: `error: --run: ${displayText((error as Error).message)}\n` };
    }
    if (argv.length === 0)
      return { ok: false, problem: 'error: --run needs the client command: mcprely probe-client --run "node my-client.mjs"\n' };
  }
  const listen = parseListen(options.listen ?? '127.0.0.1:0');
  if (typeof listen === 'string') return { ok: false, problem: `error: ${displayText(listen)}\n` };
  const server = new ScenarioHttpServer(
    timing,
    (index) => sessionTracePath(options.record, index),
    listenerGuard('mcprely probe-client', listen.host, options, messages),
  );
  let url: string;
  try {
    url = await server.listen(listen);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : (code ?? String(error));
    return { ok: false, problem: `error: cannot listen on ${displayText(options.listen ?? '')}: ${why}\n` };
  }
  const stopTelling = tellAsDecided(() => server.sessions, judge, messages);
  let how: string;
  let clientRun: ClientRun | undefined;
  if (argv.length === 0) {
    messages.write(`mcprely probe-client: listening on ${url} (Streamable HTTP; SIGINT or SIGTERM ends the run and writes the report)\n`);
    const interruption = options.interruption?.() ?? NEVER;
    how = `interrupted (${await interruption.promise})`;
    interruption.off();
  } else {
    // An interruption while the client runs stops it (its process group), and the run is still judged.
    const interruption = options.interruption?.() ?? NEVER;
    const ran = await runClient(argv, url, options.waitMs ?? DEFAULT_WAIT_MS, interruption.promise, messages);
    interruption.off();
    if (ran.problem !== undefined) {
      stopTelling();
      await server.close('the client did not start');
      return { ok: false, problem: `error: --run: ${displayText(ran.problem)}\n` };
    }
    how = ran.how;
    clientRun = ran;
    messages.write(`mcprely probe-client: the client ${how}\n`);
    // What the client's last messages set off (a cancellation's grace) is watched before the run is judged.
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, judge.graceMs)));
  }
  stopTelling();
  await server.close(how);
  return finish(server.sessions, context, server.traceProblems, clientRun);
}

/** Judges the ended sessions: the scenario outcomes, the findings, the exit code. */
function finish(
  sessions: readonly ScenarioSession[],
  context: RunContext,
  traceProblems: readonly string[] = [],
  clientRun?: ClientRun,
): ProbeClientOutcome {
  const { options, judge } = context;
  const traces = (index: number) => sessionTracePath(options.record, index);
  const judgedSessions = judgeSessions(sessions, judge, traces);
  const outcomes = scenarioOutcomes(judgedSessions, judge);
  const failures = sessionFailures(judgedSessions);
  const calledAny = outcomes.some((one) => one.calls > 0);
  // A client that ended before calling anything: its exit and its last words are the report's news.
  const clientEndedEarly =
    clientRun === undefined || calledAny
      ? undefined
      : `the client ${clientRun.how} before any scenario` + (clientRun.lastErrorLine === undefined ? '' : `: ${clientRun.lastErrorLine}`);
  const traceWriteErrors = sessions.flatMap((session, index) =>
    session.recorder.writeError === undefined ? [] : [{ trace: traces(index) ?? '', problem: session.recorder.writeError }],
  );
  return {
    ok: true,
    outcomes,
    failures,
    sessions: judgedSessions.map((one, index) => {
      const session = sessions[index] as ScenarioSession;
      const header = {
        mcprelyTrace: 1 as const,
        transport: TRACE_TRANSPORT[session.transport],
        started: session.recorder.startedAt,
        server: 'mcprely probe-client',
      };
      return { ...one, header };
    }),
    ...(clientRun === undefined ? {} : { clientRun }),
    ...(clientEndedEarly === undefined ? {} : { clientEndedEarly }),
    traceProblems,
    traceWriteErrors,
    measuredAgainst: measuredAgainst(options, context.given),
    result: lintResult(judgedSessions.map((one) => fileReport(one.label, sessionFindings(one.verdict, one.label)))),
    exitCode: exitCodeOfOutcomes(outcomes, failures, options.failSeverity),
  };
}
