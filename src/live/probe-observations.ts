/**
 * What a probe check exercised, as typed facts: what fired, how many, by what means. The probe writes them on its
 * report (`observed` of a check result, by the check's id) and the claims, drift and live fixtures read them. Pure types.
 */

/** How the probe cancelled a request: the transport's signal. */
export type CancelSignal = 'close-stream' | 'notification';

/** What came for the cancelled requests of a check after their silence began, by kind (the claims of a manifest are judged on it). */
export interface LateObservation {
  readonly progressAfterCancel: boolean;
  readonly resultAfterCancel: boolean;
  readonly answeredCancellation: boolean;
}

/** What came for one cancelled request, and how much progress had come before the cancellation. */
export interface SilenceObservation extends LateObservation {
  readonly progressBeforeCancel: number;
}

/** The progress check: whether the run completed, how many progress notifications came, how long it took (ms). */
export interface ProgressObservation {
  readonly completed: boolean;
  readonly progress: number;
  readonly durationMs?: number;
}

/** The cancellation check: its signal, how long it watched (ms), whether to the run's natural end, what the status tool said. */
export interface CancelObservation extends SilenceObservation {
  readonly signal: CancelSignal;
  readonly watchedMs: number;
  readonly toNaturalEnd: boolean;
  /** Units of work the status tool (probe.workStatus) counted after the cancellation. */
  readonly workRunning?: number;
}

/** The client-timeouts check when no timeout cancelled the run. */
export interface NoTimeoutObservation {
  readonly fired: 'none';
  readonly progress: number;
}

/** The client-timeouts check when a timeout fired and the probe cancelled. */
export interface FiredTimeoutObservation extends SilenceObservation {
  readonly fired: 'maximum' | 'idle';
  readonly firedAtMs: number;
  /** Progress notifications that reset the idle clock. */
  readonly progress: number;
  readonly signal: CancelSignal;
  readonly watchedMs: number;
  readonly workRunning?: number;
}

export type TimeoutsObservation = NoTimeoutObservation | FiredTimeoutObservation;

/** How the tasks check saw the first task from a fresh connection. */
export type DisconnectObservation = 'seen' | 'inconclusive' | 'not-observable';

/** The tasks check, as far as it got (each field set when its step ran). */
export interface TasksObservation {
  readonly created?: boolean;
  readonly polls?: number;
  /** The terminal status the first task reached. */
  readonly terminal?: string;
  readonly resultRetrieved?: boolean;
  /** Progress notifications for the request that created the first task. */
  readonly progress?: number;
  /** What tasks/cancel of the second task answered: a status, `acknowledged`, `refused` or `none`. */
  readonly cancelStatus?: string;
  /** The last status tasks/get read of the cancelled task, and the first. */
  readonly afterCancel?: string;
  readonly firstAfterCancel?: string;
  /** The error code of a second tasks/cancel of the cancelled task. */
  readonly cancelTerminalCode?: number;
  readonly survivesDisconnect?: boolean;
  readonly disconnect?: DisconnectObservation;
}

/** What each check that observes facts writes, by its id. */
export interface ObservationsByCheck {
  readonly progress: ProgressObservation;
  readonly 'cancel-before-completion': CancelObservation;
  readonly 'client-timeouts': TimeoutsObservation;
  readonly tasks: TasksObservation;
  /** Answers to its cancellations that came after it ended (see the runner's late judgement). */
  readonly 'ignored-cancellations': LateObservation;
}

/** Any check's observation, as the check writes it. */
export type ProbeObservation = ObservationsByCheck[keyof ObservationsByCheck];

/**
 * Any check's observation, as a report holds it: partial, since a check the connection's end overtook keeps only what
 * came late for its cancelled requests (`LateObservation`), and a report read back was written by another version.
 */
export type ReportedObservation = { [Id in keyof ObservationsByCheck]: Partial<ObservationsByCheck[Id]> }[keyof ObservationsByCheck];

/** The observation of the check `id`, when `check` is that check and observed something (see `ReportedObservation`). */
export function observationOf<Id extends keyof ObservationsByCheck>(
  check: { readonly id: string; readonly observed?: ReportedObservation } | undefined,
  id: Id,
): Partial<ObservationsByCheck[Id]> | undefined {
  return check?.id === id ? (check.observed as Partial<ObservationsByCheck[Id]> | undefined) : undefined;
}

/** What either check that cancels saw of its cancelled request, as far as it got (nothing, when no timeout fired). */
export type CancelledRequestObservation = Partial<SilenceObservation & { readonly workRunning: number }>;

/** The observation of a check that cancels, when `check` is one. */
export function cancelledRequestObservation(
  check: { readonly id: string; readonly observed?: ReportedObservation } | undefined,
): CancelledRequestObservation | undefined {
  return (
    observationOf(check, 'cancel-before-completion') ?? (observationOf(check, 'client-timeouts') as CancelledRequestObservation | undefined)
  );
}
