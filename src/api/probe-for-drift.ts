import type { LoadedManifest } from '../manifest/load.js';
import type { ProbeRevision } from '../probe/connection.js';
import { driftFindings } from '../probe/drift.js';
import type { ProbeReport } from '../probe/probe-types.js';
import { runProbe } from '../probe/run-probe.js';
import { displayText } from '../text/display-text.js';
import { type WireClaim, wireClaims } from '../live/wire-claims.js';
import { type LiveCallOptions, liveCallOptions } from './live-call-options.js';
import { readManifestInput } from './manifest-input.js';
import type { OnProbeEvent, OnProgress } from './on-progress.js';
import { probeTarget } from './probe-target.js';

/** A manifest and the server it describes (give exactly one of `stdio` and `url`), and how the probe calls it. */
export interface ProbeForDriftOptions extends LiveCallOptions {
  readonly manifest: string;
  readonly stdio?: string;
  readonly url?: string;
  readonly specVersion?: ProbeRevision;
  /** Told before each probe check. */
  readonly onProgress?: OnProgress;
  /** Told as each probe check starts (with its limit) and ends (with its outcome), and the moment the long tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
}

/** A probe run with a manifest, and the drift it found; or why it could not run (exit 2). */
export type DriftRun =
  | {
      readonly ok: true;
      readonly manifest: LoadedManifest;
      readonly report: ProbeReport;
      readonly findings: ReturnType<typeof driftFindings>;
      /** Each claim the probe can see, and how it fared. */
      readonly claims: readonly WireClaim[];
    }
  | { readonly ok: false; readonly problem: string };

/** Probes the server the manifest describes (only the command or URL given) and compares the two. */
export async function probeForDrift(options: ProbeForDriftOptions): Promise<DriftRun> {
  const target = probeTarget(options.stdio, options.url, { stdio: '--stdio', url: '--url' }, options.headers);
  if ('problem' in target) return { ok: false, problem: `error: ${displayText(target.problem)}\n` };
  const input = readManifestInput(options.manifest);
  if (!input.ok) return { ok: false, problem: input.report };
  const report = await runProbe({
    target,
    manifest: input.manifest,
    ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
    ...liveCallOptions(options),
    ...(options.onProgress === undefined ? {} : { onCheck: options.onProgress }),
    ...(options.onProbeEvent === undefined ? {} : { onEvent: options.onProbeEvent }),
  });
  if ('usage' in report) return { ok: false, problem: `error: ${displayText(report.usage)}\n` };
  if (!report.startedOk)
    return { ok: false, problem: `error: the probe could not start: ${displayText(report.problem ?? 'unknown reason')}\n` };
  const findings = driftFindings(input.manifest, report);
  return { ok: true, manifest: input.manifest, report, findings, claims: wireClaims(input.manifest, report, findings) };
}
