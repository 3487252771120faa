import type { AddedHeader } from '../probe/request-headers.js';

/** The probe's own budget by default: enough for a tool of up to 60 s to be run, cancelled and timed out (3 minutes). */
export const DEFAULT_MAX_TIME_MS = 180_000;

/** How long the probe watches by default for messages that must not come (ms). */
export const DEFAULT_WATCH_GRACE_MS = 1000;

/** How every live command (probe, drift, verify and evidence with a server) calls the server: one option set. */
export interface LiveCallOptions {
  /** The long-running tool to call (default: the manifest's, or one the probe picks). */
  readonly operation?: string;
  /** Arguments for the long-running tool. */
  readonly arguments?: Record<string, unknown>;
  /** The client idle timeout the probe enforces, in ms (default: the manifest's, else 10 s). */
  readonly idleTimeoutMs?: number;
  /** The client maximum timeout the probe enforces, in ms (default: the manifest's, else 30 s). */
  readonly maxTimeoutMs?: number;
  /** Also call a mutation twice with one idempotency key (default false). */
  readonly allowMutations?: boolean;
  /** How long to watch for messages that must not come, in ms (default 1000). */
  readonly graceMs?: number;
  /** The probe's own budget for everything, in ms (default 180 000). */
  readonly maxTimeMs?: number;
  /** Headers added to every request to an HTTP endpoint (`--header`): their values are never shown or recorded. */
  readonly headers?: readonly AddedHeader[];
}

/** The live options with their defaults given. */
export type ResolvedLiveCallOptions = LiveCallOptions & {
  readonly allowMutations: boolean;
  readonly graceMs: number;
  readonly maxTimeMs: number;
};

/** The live options alone, without the undefined ones (for the probe's exact optional properties), defaults given. */
export function liveCallOptions(options: LiveCallOptions): ResolvedLiveCallOptions {
  return {
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: options.maxTimeoutMs }),
    allowMutations: options.allowMutations ?? false,
    graceMs: options.graceMs ?? DEFAULT_WATCH_GRACE_MS,
    maxTimeMs: options.maxTimeMs ?? DEFAULT_MAX_TIME_MS,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}
