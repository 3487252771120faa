import { observationOf } from '../live/probe-observations.js';
import { SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';
import { medianGap, progressTimes } from '../probe/drift.js';
import type { ProbeReport } from '../probe/probe-types.js';

/**
 * A value a probe run suggests for a manifest claim, before the drift machinery judges it (wire-claims, drift): the
 * claim as the observation reads, what to write instead when the wire contradicts it, and the observation in words.
 */
export interface ClaimProposal {
  /** The field, dotted: under the operation, or from the root for the server's claims. */
  readonly field: string;
  readonly value: unknown;
  /** What the wire shows when it contradicts `value` (stopsWork: never, …), written with the contradiction as its comment. */
  readonly otherwise?: unknown;
  /** The observation in words, for the comment (else the judged claim's own words). */
  readonly observation?: string;
  /** Proposed only to learn why the claim cannot be seen: never written, even if seen. */
  readonly standIn?: boolean;
}

/**
 * What one probe run of `tool` suggests for its operation's claims: the reverse of wire-claims. Each proposal is what
 * the observation reads as; wire-claims and drift, run on a manifest that makes the proposals, decide which were seen.
 * Pure.
 */
export function operationProposals(report: ProbeReport, tool: string): ClaimProposal[] {
  const proposals: ClaimProposal[] = [];
  if (report.plan?.tool === tool) {
    const progressCheck = report.checks.find((check) => check.id === 'progress');
    const progress = observationOf(progressCheck, 'progress');
    const count = progress?.progress ?? 0;
    proposals.push({
      field: 'progress.emits',
      value: count > 0,
      ...(progress?.completed === true && progress.durationMs !== undefined
        ? {
            observation: `${count === 0 ? 'no' : count} progress notification${count === 1 ? '' : 's'} in a run of ${progress.durationMs} ms`,
          }
        : {}),
    });
    const median = medianGap(progressTimes(progressCheck?.transcript ?? []));
    if (median !== undefined) {
      const interval = roundedInterval(median);
      proposals.push({
        field: 'progress.minIntervalMs',
        value: interval,
        observation: `progress about every ${interval} ms (median gap ${Math.round(median)} ms)`,
      });
    } else if (count > 0) proposals.push({ field: 'progress.minIntervalMs', value: 1, standIn: true });
    proposals.push(
      { field: 'cancellation.stopsWork', value: 'immediately', otherwise: 'never' },
      { field: 'cancellation.suppressResponseAfterCancel', value: true, otherwise: false },
      { field: 'cancellation.invalidOrLate', value: 'ignore', otherwise: 'error-response' },
    );
  }
  if (report.plan?.taskTool === tool) {
    const tasks = observationOf(
      report.checks.find((check) => check.id === 'tasks'),
      'tasks',
    );
    // Cancelled at once (the answer, or the next tasks/get), or later: a task that did not end cancelled refutes either.
    const terminalAtOnce = tasks?.cancelStatus === 'cancelled' || tasks?.firstAfterCancel === 'cancelled';
    proposals.push(
      { field: 'task.cancel', value: terminalAtOnce ? 'immediate-terminal' : 'acknowledge-then-checkpoint' },
      { field: 'task.survivesDisconnect', value: tasks?.survivesDisconnect ?? true, standIn: tasks?.survivesDisconnect === undefined },
    );
  }
  return proposals;
}

/** What a probe run suggests for the server's own claims: the revision, and over HTTP the SSE headers. Pure. */
export function serverProposals(report: ProbeReport): ClaimProposal[] {
  const proposals: ClaimProposal[] = [];
  if (report.revision !== 'unknown') proposals.push({ field: 'specVersion', value: report.revision });
  if (report.transport === 'streamable-http') proposals.push({ field: 'server.http.sseHeaders', value: { ...SSE_RESPONSE_HEADERS } });
  return proposals;
}

/**
 * A progress interval as a round figure at or below the median gap: two significant digits, rounded down (2 096 ms
 * → 2 000, 237 → 230), never more than 5 % under it and never above it — a minimum the server kept, well inside what
 * drift accepts of a median gap (80 % of the claim).
 */
export function roundedInterval(medianMs: number): number {
  if (medianMs < 10) return Math.max(1, Math.floor(medianMs));
  const step = 10 ** (Math.floor(Math.log10(medianMs)) - 1);
  return Math.floor(medianMs / step) * step;
}
