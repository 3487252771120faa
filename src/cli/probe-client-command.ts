import type { JudgeOptions } from '../judges/judge-options.js';
import { SESSION_RULES } from '../judges/session-rules.js';
import type { Severity } from '../judges/session-rules.js';
import type { ClientUnderTest } from '../probe-client/client-profiles.js';
import { clientReportLines } from '../probe-client/client-report.js';
import { sessionSummary } from '../probe-client/session-summary.js';
import { FORMATTERS } from '../report/formats.js';
import { sessionPage } from '../audit/session-page.js';
import { displayText } from '../text/display-text.js';
import { writeOutputFile } from '../workspace/output-files.js';
import type { ListenerAllowances } from '../api/listener-guard.js';
import { type Interruption, probeClient, probeClientModeProblem, sessionTracePath } from '../api/probe-client.js';
import type { OutputSpec } from './output-spec.js';

export interface ProbeClientCommandOptions extends ListenerAllowances {
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

function say(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}

/** SIGINT or SIGTERM, from when it is asked for until `off`. */
function signalled(): Interruption {
  let off: () => void = () => undefined;
  const promise = new Promise<string>((resolve) => {
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
export async function runProbeClient(options: ProbeClientCommandOptions, toolVersion: string): Promise<number> {
  const { stdio, outputs, reportJson, html, ...rest } = options;
  const streams = stdio ? { input: process.stdin, output: process.stdout } : undefined;
  const mode = probeClientModeProblem({ ...rest, ...(streams === undefined ? {} : { stdio: streams }) });
  if (mode !== undefined) {
    say(process.stderr, `error: ${mode}`);
    return 2;
  }
  if (stdio && outputs.some((output) => output.file === undefined)) {
    say(process.stderr, 'error: over --stdio, standard output is the protocol: give each --format an --output file');
    return 2;
  }
  const run = await probeClient({
    ...rest,
    ...(streams === undefined ? {} : { stdio: streams }),
    interruption: signalled,
    messages: process.stderr,
  });
  if (!run.ok) {
    process.stderr.write(run.problem);
    return 2;
  }
  // Over stdio, standard output is the protocol: the report goes to standard error.
  const to = stdio ? process.stderr : process.stdout;
  for (const problem of run.traceProblems)
    say(process.stderr, `mcprely probe-client: ${displayText(problem)} (the session is still judged)`);
  const summaries = run.sessions.map(sessionSummary);
  say(
    to,
    clientReportLines({
      outcomes: run.outcomes,
      failures: run.failures,
      sessions: summaries,
      measuredAgainst: run.measuredAgainst,
      ...(options.client === undefined ? {} : { client: options.client }),
      ...(options.failSeverity === undefined ? {} : { failSeverity: options.failSeverity }),
      ...(run.clientEndedEarly === undefined ? {} : { clientEndedEarly: run.clientEndedEarly }),
    }).join('\n'),
  );
  for (const failure of run.traceWriteErrors)
    say(
      process.stderr,
      `mcprely probe-client: the trace ${displayText(failure.trace)} stopped being written (${displayText(failure.problem)})`,
    );
  const { clientRun, clientEndedEarly } = run;
  if (reportJson !== undefined)
    writeOutputFile(
      reportJson,
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
          outcomes: run.outcomes,
          sessionFailures: run.failures,
          sessions: run.sessions.map((one, index) => ({ ...summaries[index], judgements: one.verdict.judgements })),
        },
        null,
        2,
      )}\n`,
    );
  if (html !== undefined)
    for (const [index, one] of run.sessions.entries())
      writeOutputFile(
        sessionTracePath(html, index) ?? html,
        sessionPage({ trace: one.label, header: one.header, verdict: one.verdict }),
        'the session page',
      );
  for (const output of outputs) {
    const text = FORMATTERS[output.format](run.result, {
      toolVersion,
      rules: SESSION_RULES,
      color: false,
      category: 'mcprely-probe-client',
      sourceRoot: process.cwd(),
    });
    if (output.file === undefined) process.stdout.write(text);
    else writeOutputFile(output.file, text);
  }
  return run.exitCode;
}
