import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { JudgeOptions } from '../judges/judge-options.js';
import { judgeSession } from '../judges/judge-session.js';
import { manifestClaims } from '../judges/session-drift.js';
import { SESSION_RULES, sessionFindings } from '../judges/session-rules.js';
import { fileReport } from '../lint/file-report.js';
import { lintResult } from '../lint/lint-result.js';
import { splitCommand } from '../probe/command-line.js';
import type { Severity } from '../judges/session-rules.js';
import type { ClientUnderTest } from '../probe-client/client-profiles.js';
import { clientReportLines, exitCodeOfOutcomes } from '../probe-client/client-report.js';
import { sessionSummary } from '../probe-client/session-summary.js';
import { ScenarioHttpServer } from '../probe-client/http-server.js';
import type { ScenarioSession } from '../probe-client/scenario-session.js';
import { type JudgedSession, scenarioOutcomes, sessionFailures } from '../probe-client/scenario-outcomes.js';
import type { ScenarioTiming } from '../probe-client/scenarios.js';
import { serveStdio } from '../probe-client/stdio-server.js';
import { tellAsDecided } from '../probe-client/tell-as-decided.js';
import { traceOpenProblem } from '../recording/session-recorder.js';
import { FORMATTERS } from '../report/formats.js';
import { sessionPage } from '../audit/session-page.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from '../workspace/output-files.js';
import { parseListen } from './http-proxy-command.js';
import { type ListenerAllowances, listenerGuard } from './listener-options.js';
import { readOptionalManifest } from './manifest-input.js';
import type { OutputSpec } from './output-spec.js';
import { TRACE_TRANSPORT } from '../protocol/transports.js';

export interface ProbeClientOptions extends ListenerAllowances {
  readonly stdio: boolean;
  readonly listen?: string;
  readonly run?: string;
  readonly judge: JudgeOptions;
  readonly manifest?: string;
  /** The first session's trace; later sessions get `.2`, `.3`… before the extension. */
  readonly record?: string;
  readonly holdMs: number;
  /** `--run`: how long the command may take before it is stopped (ms). */
  readonly waitMs: number;
  readonly reportJson?: string;
  /** The page of each session (later sessions numbered as the traces are): the verdict and a diagram of each failure. */
  readonly html?: string;
  /** The client library the client is built on (a profile of docs/client-profiles.md), and its version when known. */
  readonly client?: ClientUnderTest;
  /** A failed case fails the run (exit 1) when its rule is at least this severe (the rule audit shares). */
  readonly failSeverity?: Severity;
  readonly outputs: readonly OutputSpec[];
}

/** The trace of the session at `index`: the path given for the first, numbered before the extension for the others. */
export function sessionTracePath(record: string | undefined, index: number): string | undefined {
  if (record === undefined || index === 0) return record;
  const dot = record.lastIndexOf('.');
  return dot > record.lastIndexOf('/') && dot > 0 ? `${record.slice(0, dot)}.${index + 1}${record.slice(dot)}` : `${record}.${index + 1}`;
}

function say(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}

/** What the client is judged against, in words. */
function measuredAgainst(options: ProbeClientOptions): string {
  const parts = [
    options.judge.idleTimeoutMs === undefined ? undefined : `an idle timeout of ${options.judge.idleTimeoutMs} ms`,
    options.judge.maxTimeoutMs === undefined ? undefined : `a maximum of ${options.judge.maxTimeoutMs} ms`,
    options.manifest === undefined ? undefined : `the timeouts of ${displayText(options.manifest)}`,
  ].filter((part) => part !== undefined);
  return `${parts.length === 0 ? 'no timeout (give --idle-timeout and --max-timeout)' : parts.join(', ')}, tolerance ${options.judge.toleranceMs} ms`;
}

function judgeSessions(
  sessions: readonly ScenarioSession[],
  judge: JudgeOptions,
  traces: (index: number) => string | undefined,
  live: boolean,
): JudgedSession[] {
  return sessions.map((session, index) => ({
    label: traces(index) ?? session.label,
    verdict: judgeSession(live ? session.recorder.snapshot() : session.end('the run ended'), judge),
  }));
}

/** Judges the ended sessions and writes the report (`to`), the JSON report and the lint formats; the exit code. */
function finish(
  sessions: readonly ScenarioSession[],
  options: ProbeClientOptions,
  judge: JudgeOptions,
  to: NodeJS.WritableStream,
  toolVersion: string,
  traceProblems: readonly string[] = [],
  clientRun?: ClientRun,
): number {
  for (const problem of traceProblems) say(process.stderr, `mcprely probe-client: ${displayText(problem)} (the session is still judged)`);
  const traces = (index: number) => sessionTracePath(options.record, index);
  const judgedSessions = judgeSessions(sessions, judge, traces, false);
  const outcomes = scenarioOutcomes(judgedSessions, judge);
  const failures = sessionFailures(judgedSessions);
  const summaries = judgedSessions.map(sessionSummary);
  const calledAny = outcomes.some((one) => one.calls > 0);
  // A client that ended before calling anything: its exit and its last words are the report's news.
  const clientEndedEarly =
    clientRun === undefined || calledAny
      ? undefined
      : `the client ${clientRun.how} before any scenario` + (clientRun.lastErrorLine === undefined ? '' : `: ${clientRun.lastErrorLine}`);
  say(
    to,
    clientReportLines({
      outcomes,
      failures,
      sessions: summaries,
      measuredAgainst: measuredAgainst(options),
      ...(options.client === undefined ? {} : { client: options.client }),
      ...(options.failSeverity === undefined ? {} : { failSeverity: options.failSeverity }),
      ...(clientEndedEarly === undefined ? {} : { clientEndedEarly }),
    }).join('\n'),
  );
  for (const [index, session] of sessions.entries())
    if (session.recorder.writeError !== undefined)
      say(
        process.stderr,
        `mcprely probe-client: the trace ${displayText(traces(index) ?? '')} stopped being written (${displayText(session.recorder.writeError)})`,
      );
  if (options.reportJson !== undefined)
    writeOutputFile(
      options.reportJson,
      `${JSON.stringify(
        {
          ...(clientRun === undefined
            ? {}
            : {
                client: {
                  how: clientRun.how,
                  ...(clientRun.lastErrorLine === undefined ? {} : { lastErrorLine: clientRun.lastErrorLine }),
                },
              }),
          ...(clientEndedEarly === undefined ? {} : { clientEndedEarly }),
          outcomes,
          sessionFailures: failures,
          sessions: judgedSessions.map((one, index) => ({ ...summaries[index], judgements: one.verdict.judgements })),
        },
        null,
        2,
      )}\n`,
    );
  if (options.html !== undefined)
    for (const [index, one] of judgedSessions.entries()) {
      const session = sessions[index] as ScenarioSession;
      const header = {
        mcprelyTrace: 1 as const,
        transport: TRACE_TRANSPORT[session.transport],
        started: session.recorder.startedAt,
        server: 'mcprely probe-client',
      };
      writeOutputFile(
        sessionTracePath(options.html, index) ?? options.html,
        sessionPage({ trace: one.label, header, verdict: one.verdict }),
        'the session page',
      );
    }
  if (options.outputs.length > 0) {
    const result = lintResult(judgedSessions.map((one) => fileReport(one.label, sessionFindings(one.verdict, one.label))));
    for (const output of options.outputs) {
      const text = FORMATTERS[output.format](result, {
        toolVersion,
        rules: SESSION_RULES,
        color: false,
        category: 'mcprely-probe-client',
        sourceRoot: process.cwd(),
      });
      if (output.file === undefined) process.stdout.write(text);
      else writeOutputFile(output.file, text);
    }
  }
  return exitCodeOfOutcomes(outcomes, failures, options.failSeverity);
}

function signalled(): { readonly promise: Promise<NodeJS.Signals>; readonly off: () => void } {
  let off: () => void = () => undefined;
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    const on = (signal: NodeJS.Signals) => resolve(signal);
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
    off = () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    };
  });
  return { promise, off };
}

/**
 * `mcprely probe-client`: an MCP server whose tools are scenarios, judged on what the client does with them. Over
 * stdio (`--stdio`, a host starts it as a server command), Streamable HTTP (`--listen`), or `--run "<command>"`
 * (a client library under test, started with the endpoint as its last argument). Exit 0 when every exercised
 * scenario passed, 1 when one failed, 2 when nothing was exercised or the command is wrong.
 */
export async function runProbeClient(options: ProbeClientOptions, toolVersion: string): Promise<number> {
  const modes = [options.stdio, options.listen !== undefined && options.run === undefined, options.run !== undefined].filter(
    Boolean,
  ).length;
  if (modes !== 1) {
    say(process.stderr, 'error: give one way to meet the client: --stdio, --listen <[host:]port>, or --run "<client command>"');
    return 2;
  }
  if (options.stdio && (options.allowHosts !== undefined || options.allowOrigins !== undefined)) {
    say(process.stderr, 'error: --allow-host and --allow-origin widen an HTTP listener: give them with --listen or --run');
    return 2;
  }
  if (options.stdio && options.outputs.some((output) => output.file === undefined)) {
    say(process.stderr, 'error: over --stdio, standard output is the protocol: give each --format an --output file');
    return 2;
  }
  const manifest = readOptionalManifest(options.manifest);
  if (manifest === false) return 2;
  const judge: JudgeOptions = manifest === undefined ? options.judge : { ...options.judge, claimsFor: manifestClaims(manifest) };
  const timing: ScenarioTiming = {
    holdMs: options.holdMs,
    ...(options.judge.idleTimeoutMs === undefined ? {} : { idleMs: options.judge.idleTimeoutMs }),
    ...(options.judge.maxTimeoutMs === undefined ? {} : { maxMs: options.judge.maxTimeoutMs }),
  };
  try {
    // The trace is opened before anything starts, so that a path that cannot be written stops the run at once.
    if (options.record !== undefined) closeSync(openSync(options.record, 'a'));
    if (options.stdio) return await runStdio(options, judge, timing, toolVersion);
    return await runHttp(options, judge, timing, toolVersion);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall === 'open') {
      say(process.stderr, `error: cannot write the trace ${displayText(options.record ?? '')}: ${displayText(traceOpenProblem(error))}`);
      return 2;
    }
    throw error;
  }
}

async function runStdio(options: ProbeClientOptions, judge: JudgeOptions, timing: ScenarioTiming, toolVersion: string): Promise<number> {
  const served = serveStdio(process.stdin, process.stdout, timing, options.record);
  const stopTelling = tellAsDecided(() => [served.session], judge, process.stderr);
  const signal = signalled();
  await Promise.race([served.ended, signal.promise]);
  signal.off();
  stopTelling();
  process.stdin.destroy();
  return finish([served.session], options, judge, process.stderr, toolVersion);
}

async function runHttp(options: ProbeClientOptions, judge: JudgeOptions, timing: ScenarioTiming, toolVersion: string): Promise<number> {
  let argv: string[] = [];
  if (options.run !== undefined) {
    try {
      argv = splitCommand(options.run);
    } catch (error) {
      say(process.stderr, `error: --run: ${displayText((error as Error).message)}`);
      return 2;
    }
    if (argv.length === 0) {
      say(process.stderr, 'error: --run needs the client command: mcprely probe-client --run "node my-client.mjs"');
      return 2;
    }
  }
  const listen = parseListen(options.listen ?? '127.0.0.1:0');
  if (typeof listen === 'string') {
    say(process.stderr, `error: ${displayText(listen)}`);
    return 2;
  }
  const server = new ScenarioHttpServer(
    timing,
    (index) => sessionTracePath(options.record, index),
    listenerGuard('mcprely probe-client', listen.host, options),
  );
  let url: string;
  try {
    url = await server.listen(listen);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : (code ?? String(error));
    say(process.stderr, `error: cannot listen on ${displayText(options.listen ?? '')}: ${why}`);
    return 2;
  }
  const stopTelling = tellAsDecided(() => server.sessions, judge, process.stderr);
  let how: string;
  let clientRun: ClientRun | undefined;
  if (argv.length === 0) {
    say(
      process.stderr,
      `mcprely probe-client: listening on ${url} (Streamable HTTP; SIGINT or SIGTERM ends the run and writes the report)`,
    );
    const signal = signalled();
    how = `interrupted (${await signal.promise})`;
    signal.off();
  } else {
    // SIGINT or SIGTERM while the client runs stops it (its process group), and the run is still judged.
    const signal = signalled();
    const ran = await runClient(argv, url, options.waitMs, signal.promise);
    signal.off();
    if (ran.problem !== undefined) {
      stopTelling();
      await server.close('the client did not start');
      say(process.stderr, `error: --run: ${displayText(ran.problem)}`);
      return 2;
    }
    how = ran.how;
    clientRun = ran;
    say(process.stderr, `mcprely probe-client: the client ${how}`);
    // What the client's last messages set off (a cancellation's grace) is watched before the run is judged.
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, judge.graceMs)));
  }
  stopTelling();
  await server.close(how);
  return finish(server.sessions, options, judge, process.stdout, toolVersion, server.traceProblems, clientRun);
}

/** How a client started by --run ended, and the last line it wrote to stderr (what a crash says). */
interface ClientRun {
  readonly how: string;
  readonly lastErrorLine?: string;
}

/** The most of a client's stderr line kept for the report: its last words, not its whole log. */
const LAST_LINE_MAX = 400;

/** Passes a client's stderr through to ours and keeps its last non-empty line (bounded). */
class LastLine {
  #pending = '';
  #last: string | undefined;

  write(chunk: string): void {
    const text = this.#pending + chunk;
    const lines = text.split(/\r?\n/);
    this.#pending = (lines.pop() ?? '').slice(-LAST_LINE_MAX);
    for (const line of lines) if (line.trim() !== '') this.#last = line.trim().slice(0, LAST_LINE_MAX);
  }

  get last(): string | undefined {
    return this.#pending.trim() !== '' ? this.#pending.trim() : this.#last;
  }
}

/** Starts the client with the endpoint as its last argument (and in MCPRELY_PROBE_URL); how it ended, or why it did not start. */
function runClient(
  argv: readonly string[],
  url: string,
  waitMs: number,
  interrupted: Promise<NodeJS.Signals>,
): Promise<(ClientRun & { problem?: undefined }) | { problem: string }> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    const lastLine = new LastLine();
    try {
      child = spawn(argv[0] as string, [...argv.slice(1), url], {
        // The client's output goes to stderr: stdout is the report's. Its stderr passes through us, its last line kept.
        stdio: ['ignore', 2, 'pipe'],
        env: { ...process.env, MCPRELY_PROBE_URL: url },
        // Its own process group, so that stopping it stops what it started too (a shell script's client).
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      resolve({ problem: (error as Error).message });
      return;
    }
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      lastLine.write(chunk);
    });
    let stoppedBecause: string | undefined;
    const stop = (why: string) => {
      stoppedBecause ??= why;
      const kill = (signal: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
          else child.kill(signal);
        } catch {
          // Already gone.
        }
      };
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 2000).unref();
    };
    const timer = setTimeout(() => stop(`did not exit within ${waitMs} ms and was stopped`), waitMs);
    void interrupted.then((signal) => stop(`was stopped: mcprely was interrupted (${signal})`));
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ problem: `${argv[0]}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such program' : error.message}` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const done = () => {
        const last = lastLine.last;
        resolve({
          how: stoppedBecause ?? (signal !== null ? `was ended by ${signal}` : `exited ${code}`),
          ...(last === undefined ? {} : { lastErrorLine: last }),
        });
      };
      // Its stderr read to the end first, unless something it started still holds the pipe.
      const drained = setTimeout(done, 500);
      child.once('close', () => {
        clearTimeout(drained);
        done();
      });
    });
  });
}
