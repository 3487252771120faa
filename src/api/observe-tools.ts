import type { ToolObservation } from '../init/observed-manifest.js';
import type { ObservationPlan } from '../init/observation-plan.js';
import type { ProbeRevision } from '../probe/connection.js';
import type { LiveCallOptions } from './live-call-options.js';
import type { OnProbeEvent } from './on-progress.js';
import { probe } from './probe.js';

/** The run that calls no tool, as its observation names it: the server's claims only. */
export const SERVER_ONLY = '';

/** The server init lists the tools of, and how the probe calls each (give exactly one of `stdio` and `url`). */
export interface ObserveToolsOptions extends Pick<LiveCallOptions, 'headers' | 'graceMs' | 'maxTimeMs'> {
  readonly stdio?: string;
  readonly url?: string;
  readonly specVersion?: ProbeRevision;
  /** Told before each tool is probed. */
  readonly onTool?: (index: number, total: number, tool: string) => void;
  /** Each probe check as it starts and ends, and the moment a tool stalls. */
  readonly onProbeEvent?: OnProbeEvent;
}

/**
 * Probes each tool the plan names, one probe run each (`probe` with the tool as its operation, a fresh server
 * process over stdio), the ones that may change state only as the plan allows; the others as the plan skipped them.
 * When the plan names none, one run that calls no tool (`SERVER_ONLY`). Prints nothing.
 */
export async function observeTools(plan: ObservationPlan, options: ObserveToolsOptions): Promise<ToolObservation[]> {
  const observations: ToolObservation[] = plan.skipped.map(({ tool, why }) => ({ tool, notProbed: why }));
  // With no tool to call, one run still shows the server's own claims (the revision, the SSE headers, GET).
  const runs = plan.probe.length === 0 ? [SERVER_ONLY] : plan.probe;
  for (const [index, tool] of runs.entries()) {
    options.onTool?.(index, runs.length, tool === SERVER_ONLY ? 'the server (no tool)' : tool);
    const outcome = await probe({
      ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
      ...(options.maxTimeMs === undefined ? {} : { maxTimeMs: options.maxTimeMs }),
      ...(tool === SERVER_ONLY ? {} : { operation: tool }),
      allowMutations: plan.mayChangeState.includes(tool),
      ...(options.onProbeEvent === undefined ? {} : { onProbeEvent: options.onProbeEvent }),
    });
    observations.push(outcome.ok ? { tool, report: outcome.report } : { tool, notProbed: outcome.problem.replace(/^error: /, '').trim() });
  }
  return observations;
}
