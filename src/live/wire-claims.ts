import type { Finding } from '../findings/finding.js';
import type { LoadedManifest } from '../manifest/load.js';
import type { ResolvedOperation } from '../manifest/resolved-operation.js';
import { isKeyedMutation } from '../policy/predicates.js';
import type { CheckStatus } from './outcome.js';
import { cancelledRequestObservation, observationOf, type ReportedObservation } from './probe-observations.js';
import { taskClaims } from './task-claims.js';

/** A probe check as the claims read it. */
export interface CheckResult {
  readonly id: string;
  readonly status: CheckStatus;
  readonly summary: string;
  readonly observed?: ReportedObservation;
}

/** A live run as the claims read it: what the probe called, and its checks. */
export interface ProbeReport {
  readonly plan?: {
    readonly tool: string | null;
    readonly why: string;
    readonly mutation: string | null;
    readonly taskTool?: string | null;
  };
  readonly checks: readonly CheckResult[];
}

/**
 * How one claim of a manifest fared on the wire: `seen` — a check exercised it and saw it hold; `contradicted` —
 * the server did otherwise (a drift finding); `inconclusive` — nothing exercised it (why, and the option that
 * would); `not-observable` — it cannot be seen on this transport and revision (why, and what would show it).
 * Every claim not seen stands "as declared".
 */
export type ClaimStatus = 'seen' | 'contradicted' | 'inconclusive' | 'not-observable';

export interface WireClaim {
  /** The operation the claim is about, or none for the server as a whole. */
  readonly operation?: string;
  /** The manifest field that makes the claim, and its value. */
  readonly field: string;
  readonly value: string;
  readonly status: ClaimStatus;
  /** The probe check it rests on. */
  readonly check: string;
  /** What was seen, or why it was not. */
  readonly why: string;
}

/** Each claim of the manifest that the probe can see on the wire, and how it fared in this run. Pure. */
export function wireClaims(manifest: LoadedManifest, report: ProbeReport, drift: readonly Finding[]): WireClaim[] {
  const claims: WireClaim[] = [];
  const checkOf = (id: string) => report.checks.find((check) => check.id === id);
  const contradicted = (operation: ResolvedOperation | undefined, path: string) => {
    const pointer =
      operation === undefined ? `/${path.split('.').join('/')}` : `/operations/${operation.index}/${path.split('.').join('/')}`;
    return drift.some((finding) => finding.path === pointer || finding.path.startsWith(`${pointer}/`));
  };
  const add = (
    operation: ResolvedOperation | undefined,
    field: string,
    value: unknown,
    check: string,
    judged: { status: ClaimStatus; why: string },
  ) => {
    const status = contradicted(operation, field) ? 'contradicted' : judged.status;
    claims.push({
      ...(operation === undefined ? {} : { operation: operation.spec.name }),
      field,
      value: String(value),
      status,
      check,
      why: status === 'contradicted' && judged.status !== 'contradicted' ? `${checkOf(check)?.summary ?? judged.why}` : judged.why,
    });
  };
  const fromCheck = (id: string, seenWhy?: (check: CheckResult) => string): { status: ClaimStatus; why: string } => {
    const check = checkOf(id);
    if (check === undefined) return { status: 'inconclusive', why: `the probe did not run ${id}` };
    if (check.status === 'pass') return { status: 'seen', why: seenWhy?.(check) ?? check.summary };
    if (check.status === 'fail') return { status: 'contradicted', why: check.summary };
    return { status: check.status, why: check.summary };
  };

  const revision = checkOf('revision');
  if (revision !== undefined) add(undefined, 'specVersion', manifest.manifest.specVersion, 'revision', fromCheck('revision'));
  const sse = manifest.manifest.server.http?.sseHeaders;
  if (sse !== undefined) add(undefined, 'server.http.sseHeaders', JSON.stringify(sse), 'sse-headers', fromCheck('sse-headers'));

  const probed = manifest.operations.find((operation) => operation.spec.name === report.plan?.tool);
  for (const operation of manifest.operations) {
    const spec = operation.spec;
    const cancellation = spec.cancellation ?? {};
    const listed: [string, unknown, string][] = [];
    if (cancellation.stopsWork === 'immediately' || cancellation.stopsWork === 'checkpoint')
      listed.push(['cancellation.stopsWork', cancellation.stopsWork, 'cancel-before-completion']);
    if (cancellation.suppressResponseAfterCancel === true)
      listed.push(['cancellation.suppressResponseAfterCancel', true, 'cancel-before-completion']);
    if (cancellation.invalidOrLate !== undefined)
      listed.push(['cancellation.invalidOrLate', cancellation.invalidOrLate, 'ignored-cancellations']);
    if (spec.progress?.emits !== undefined) listed.push(['progress.emits', spec.progress.emits, 'progress']);
    if (spec.progress?.minIntervalMs !== undefined) listed.push(['progress.minIntervalMs', spec.progress.minIntervalMs, 'progress']);
    if (operation !== probed) {
      const why =
        report.plan?.tool === null || report.plan?.tool === undefined
          ? `the probe called no long-running tool (${report.plan?.why ?? 'none was chosen'}): name ${spec.name} with --operation`
          : `the probe called ${report.plan.tool}, not ${spec.name}: name it with --operation to see it`;
      for (const [field, value, check] of listed) add(operation, field, value, check, { status: 'inconclusive', why });
    } else for (const [field, value, check] of listed) add(operation, field, value, check, judgeProbed(field, report, fromCheck));
    const tasks = taskClaims(spec.task, checkOf('tasks'));
    for (const claim of tasks) {
      const taskTool = report.plan?.taskTool;
      if (taskTool === spec.name) add(operation, claim.field, claim.value, 'tasks', claim);
      else
        add(operation, claim.field, claim.value, 'tasks', {
          status: 'inconclusive',
          why:
            taskTool === null || taskTool === undefined
              ? `the probe ran no tool as a task: name ${spec.name} with --operation`
              : `the probe ran ${taskTool} as a task, not ${spec.name}: name it with --operation to see it`,
        });
    }
    if (isKeyedMutation(spec)) {
      const field = 'idempotency.keyArgument';
      if (report.plan?.mutation === spec.name)
        add(operation, field, spec.idempotency?.keyArgument, 'idempotent-replay', fromCheck('idempotent-replay'));
      else
        add(operation, field, spec.idempotency?.keyArgument, 'idempotent-replay', {
          status: 'inconclusive',
          why:
            report.plan?.mutation === null || report.plan?.mutation === undefined
              ? 'not run: calling a mutation needs --allow-mutations'
              : `the probe called the mutation ${report.plan.mutation}, not ${spec.name}`,
        });
    }
  }
  return claims;
}

/** A claim about the probed tool, judged from what its check observed. */
function judgeProbed(
  field: string,
  report: ProbeReport,
  fromCheck: (id: string, seenWhy?: (check: CheckResult) => string) => { status: ClaimStatus; why: string },
): { status: ClaimStatus; why: string } {
  const check = (id: string) => report.checks.find((candidate) => candidate.id === id);
  const cancels = [check('cancel-before-completion'), check('client-timeouts')].filter((entry) => entry !== undefined);
  if (field === 'cancellation.stopsWork') return stopsWorkOf(cancels);
  if (field === 'cancellation.suppressResponseAfterCancel') {
    const answered = cancels.find((entry) => {
      const observed = cancelledRequestObservation(entry);
      return observed?.resultAfterCancel === true || observed?.answeredCancellation === true;
    });
    if (answered !== undefined) return { status: 'contradicted', why: answered.summary };
    const cancel = check('cancel-before-completion');
    const observed = observationOf(cancel, 'cancel-before-completion') ?? {};
    // Only a stream left open shows a response suppressed, and only when the probe cancelled and watched it.
    if (observed.signal === 'close-stream')
      return { status: 'not-observable', why: 'the cancellation closed the stream: no response could reach the probe on it' };
    if (observed.signal !== 'notification' || (observed.watchedMs ?? 0) <= 0) return fromCheck('cancel-before-completion');
    const watched = `no response came for the cancelled request in the ${String(observed.watchedMs)} ms watched`;
    if (cancel?.status === 'fail') return { status: 'seen', why: `${watched} (the check failed on something else)` };
    return fromCheck('cancel-before-completion', () => watched);
  }
  if (field === 'progress.emits' || field === 'progress.minIntervalMs') {
    const progress = check('progress');
    const observed = observationOf(progress, 'progress');
    if (progress?.status === 'inconclusive' && observed?.completed === true) {
      if (field === 'progress.emits') return { status: 'seen', why: progress.summary };
      return { status: 'inconclusive', why: 'no progress came, so no interval could be measured' };
    }
    if (field === 'progress.minIntervalMs' && progress?.status === 'pass' && (observed?.progress ?? 0) < 3)
      return { status: 'inconclusive', why: 'fewer than three progress notifications: no interval could be measured' };
    return fromCheck('progress');
  }
  return fromCheck('ignored-cancellations');
}

/**
 * Whether the work stopped, from both checks that cancel (before completion, and on a client timeout): seen only
 * through the status tool; contradicted by progress or a result after a cancellation, or by work the status tool
 * still counts.
 */
function stopsWorkOf(cancels: readonly CheckResult[]): { status: ClaimStatus; why: string } {
  const cancel = cancels[0];
  if (cancel === undefined) return { status: 'inconclusive', why: 'the probe did not run cancel-before-completion' };
  const wentOn = cancels.find((entry) => {
    const observed = cancelledRequestObservation(entry) ?? {};
    return (observed.workRunning ?? 0) > 0 || observed.progressAfterCancel === true || observed.resultAfterCancel === true;
  });
  if (wentOn !== undefined) return { status: 'contradicted', why: wentOn.summary };
  const stopped = cancels.find((entry) => cancelledRequestObservation(entry)?.workRunning === 0);
  if (stopped !== undefined) return { status: 'seen', why: stopped.summary };
  if (cancel.status === 'inconclusive' || cancel.status === 'not-observable') return { status: cancel.status, why: cancel.summary };
  // Silence is not a stop: the SDKs drop a cancelled request's response, and some its progress, while the handler runs on.
  return {
    status: 'not-observable',
    why:
      'nothing more came for the cancelled request, but silence does not show the work stopped: the SDKs drop a cancelled ' +
      "request's response (and the TypeScript SDK v1 its progress) while the handler runs on (docs/sdk-behaviours.md); " +
      'name a status tool in the manifest (probe.workStatus) to observe it',
  };
}

/**
 * A claim seen by a check that put a request in flight (`putsCallInFlight`, each probe check's declaration says it:
 * src/probe/check-declarations): the run compared something with real work. A claim seen only by another check
 * (revision, headers) does not make a run exercised.
 */
export function exercised(claims: readonly WireClaim[], putsCallInFlight: (check: string) => boolean): boolean {
  return claims.some((claim) => claim.status !== 'inconclusive' && claim.status !== 'not-observable' && putsCallInFlight(claim.check));
}

/** The claims not seen, each named with its outcome (the claims list says why): what stands as declared. */
export function asDeclared(claims: readonly WireClaim[]): string[] {
  return claims
    .filter((claim) => claim.status === 'inconclusive' || claim.status === 'not-observable')
    .map((claim) => `${claimName(claim)} (${claim.status === 'inconclusive' ? 'inconclusive' : 'not observable'})`);
}

/** A claim by its operation and field: "slow_job: cancellation.stopsWork". */
export function claimName(claim: WireClaim): string {
  return `${claim.operation === undefined ? '' : `${claim.operation}: `}${claim.field}`;
}
