import type { ProbeRevision } from '../probe/connection.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { probeExitCode } from '../probe/render-probe.js';
import { runProbe } from '../probe/run-probe.js';
import { displayText } from '../text/display-text.js';
import { type LiveCallOptions, liveCallOptions } from './live-call-options.js';
import { readOptionalManifest } from './manifest-input.js';
import type { OnProbeEvent, OnProgress } from './on-progress.js';
import { probeTarget } from './probe-target.js';

/** The server to probe and how: `mcprely probe`'s options as values. Give exactly one of `stdio` and `url`. */
export interface ProbeOptions extends LiveCallOptions {
  /** A command to run (split as a shell would, run without one) that speaks MCP over its stdin and stdout. */
  readonly stdio?: string;
  /** A Streamable HTTP endpoint (it gets the `headers`). */
  readonly url?: string;
  /** The manifest that names the long-running tool, its timeouts and its key argument. */
  readonly manifest?: string;
  /** The protocol revision to probe (default: the manifest's, or asked of an HTTP server, or the most deployed). */
  readonly specVersion?: ProbeRevision;
  /** Write the probe's session to this trace, as the proxy records one (`audit` judges it again). */
  readonly record?: string;
  /** Told before each check. */
  readonly onProgress?: OnProgress;
  /** Told as each check starts (with its limit) and ends (with its outcome), and the moment the long tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
}

/** What the probe saw, or why it could not run as asked. */
export type ProbeOutcome =
  | {
      readonly ok: true;
      /** Each check's status, what it observed, and its transcript; the session's judgements. */
      readonly report: ProbeReport;
      /**
       * 0 when nothing failed and a request in flight was judged, 1 when a check failed, 2 when the probe could not
       * start (nothing listens, not an MCP server), 3 when nothing failed but nothing in flight was judged.
       */
      readonly exitCode: 0 | 1 | 2 | 3;
    }
  | {
      readonly ok: false;
      /** Why nothing was probed (the options, the manifest, a tool it must not call), as lines of text. */
      readonly problem: string;
    };

/**
 * Checks what a live MCP server does on the wire when requests are cancelled, time out or are retried: runs only
 * the command or calls only the endpoint given, performs the handshake and runs each check within its budget.
 * Prints nothing.
 */
export async function probe(options: ProbeOptions): Promise<ProbeOutcome> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--stdio', url: '--url' }, options.headers);
  if ('problem' in target) return { ok: false, problem: `error: ${displayText(target.problem)}\n` };
  const manifest = readOptionalManifest(options.manifest);
  if (manifest !== undefined && !manifest.ok) return { ok: false, problem: manifest.report };
  const report = await runProbe({
    target,
    ...(manifest === undefined ? {} : { manifest: manifest.manifest }),
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...(options.record === undefined ? {} : { record: options.record }),
    ...liveCallOptions(options),
    ...(options.onProgress === undefined ? {} : { onCheck: options.onProgress }),
    ...(options.onProbeEvent === undefined ? {} : { onEvent: options.onProbeEvent }),
  });
  if ('usage' in report) return { ok: false, problem: `error: ${displayText(report.usage)}\n` };
  return { ok: true, report, exitCode: probeExitCode(report) };
}
