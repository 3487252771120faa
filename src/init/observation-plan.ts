import { safetyOf } from '../probe/probe-plan.js';
import type { ToolSummary } from '../probe/tool-summary.js';

/** Which tools init --observe probes, and why each other one is not. */
export interface ObservationPlan {
  /** The tools to probe, in tools/list order. */
  readonly probe: readonly string[];
  /** The tools to probe that may change state (only with --allow-mutations): named before any is called. */
  readonly mayChangeState: readonly string[];
  /** The tools not probed, and why. */
  readonly skipped: readonly { readonly tool: string; readonly why: string }[];
}

/**
 * The tools init --observe may call: those read-only by their annotations (readOnlyHint: true, not destructive: the
 * probe's own rule), every other only with --allow-mutations. Pure.
 */
export function observationPlan(tools: readonly ToolSummary[], allowMutations: boolean): ObservationPlan {
  const probe: string[] = [];
  const mayChangeState: string[] = [];
  const skipped: { tool: string; why: string }[] = [];
  for (const tool of tools) {
    const safety = safetyOf(tool, undefined);
    if (safety.safe) probe.push(tool.name);
    else if (allowMutations) {
      probe.push(tool.name);
      mayChangeState.push(tool.name);
    } else skipped.push({ tool: tool.name, why: `it may change state (${safety.why}): --allow-mutations calls it` });
  }
  return { probe, mayChangeState, skipped };
}
