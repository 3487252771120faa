import type { SessionJudgeId } from '../judges/session-rules.js';
import { cancelBeforeCompletion } from './check-declarations/cancel-before-completion.js';
import { clientTimeouts } from './check-declarations/client-timeouts.js';
import { getNotAllowed } from './check-declarations/get-405.js';
import { idempotentReplay } from './check-declarations/idempotent-replay.js';
import { ignoredCancellations } from './check-declarations/ignored-cancellations.js';
import { progress } from './check-declarations/progress.js';
import { revision } from './check-declarations/revision.js';
import { sseHeaders } from './check-declarations/sse-headers.js';
import { tasks } from './check-declarations/tasks.js';
import { tools } from './check-declarations/tools.js';
import { wire } from './check-declarations/wire.js';
import type { ProbeCheckDeclaration } from './probe-check-declaration.js';

/**
 * Every probe check, declared once, in the order of a report: `revision` and `tools` frame the run, the checks the
 * runner plays follow, and `wire` (judged on everything seen) ends it. The probe's part of the catalog of checks.
 */
export const PROBE_CHECK_DECLARATIONS = [
  revision,
  tools,
  progress,
  cancelBeforeCompletion,
  clientTimeouts,
  tasks,
  ignoredCancellations,
  sseHeaders,
  getNotAllowed,
  idempotentReplay,
  wire,
] as const satisfies readonly ProbeCheckDeclaration[];

export type ProbeCheckDeclarations = (typeof PROBE_CHECK_DECLARATIONS)[number];

/** The id of a probe check. */
export type ProbeCheckId = ProbeCheckDeclarations['id'];

/** The declaration of the check `id`. */
export type ProbeCheckDeclarationOf<Id extends ProbeCheckId> = Extract<ProbeCheckDeclarations, { readonly id: Id }>;

const BY_ID: ReadonlyMap<string, ProbeCheckDeclarations> = new Map(
  PROBE_CHECK_DECLARATIONS.map((declaration) => [declaration.id, declaration]),
);

/** The declaration of a check named by a report (a string read back), or undefined when no check has that id. */
export function probeCheckDeclaration(id: string): ProbeCheckDeclarations | undefined {
  return BY_ID.get(id);
}

/** Whether the check `id` puts a tool call in flight (see `putsCallInFlight`); false for an id no check has. */
export function putsCallInFlight(id: string): boolean {
  return probeCheckDeclaration(id)?.putsCallInFlight === true;
}

/** Whether the check `id` asserts the rule of the session judge `judge` about the requests it sends. */
export function asserts(id: string, judge: string): boolean {
  return probeCheckDeclaration(id)?.asserts.some((asserted: SessionJudgeId) => asserted === judge) === true;
}
