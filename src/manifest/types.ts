/**
 * The manifest as data, after validation against schemas/manifest.schema.json.
 * Optional fields are optional in the schema on purpose: the rule that needs one reports it missing.
 */
import type { SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';

export type SideEffect = 'none' | 'idempotent' | 'mutation';
export type Jitter = 'none' | 'full' | 'equal';

export interface Manifest {
  readonly mcprely: 1;
  readonly specVersion: SpecVersion;
  readonly server: ServerSpec;
  readonly defaults?: Policy;
  readonly operations: readonly OperationSpec[];
  readonly 'x-mcprely-ignore'?: readonly IgnoreEntry[];
}

/** Suppresses one rule's findings, with the reason the reports keep. */
export interface IgnoreEntry {
  readonly rule: string;
  readonly reason: string;
}

export interface ServerSpec {
  readonly name: string;
  readonly transports: readonly Transport[];
  readonly replicas?: number;
  readonly tenancy?: 'single' | 'multi';
  readonly http?: HttpSpec;
}

export interface HttpSpec {
  readonly endpoint?: string;
  readonly sseHeaders?: Readonly<Record<string, string>>;
  readonly keepaliveMs?: number;
  readonly proxyIdleTimeoutMs?: number;
  readonly responseMode?: 'sse' | 'json';
}

export type Method =
  | 'tools/call'
  | 'resources/read'
  | 'resources/list'
  | 'tools/list'
  | 'prompts/get'
  | 'prompts/list'
  | 'completion/complete'
  | 'subscriptions/listen'
  | 'resources/subscribe'
  | 'initialize'
  | 'sampling/createMessage'
  | 'elicitation/create'
  | 'roots/list';

export interface Policy {
  readonly sideEffect?: SideEffect;
  readonly annotations?: Annotations;
  readonly timeouts?: Timeouts;
  readonly progress?: ProgressPolicy;
  readonly cancellation?: CancellationPolicy;
  readonly retry?: RetryPolicy;
  readonly idempotency?: IdempotencyPolicy;
  readonly flowControl?: FlowControlPolicy;
  readonly recovery?: RecoveryPolicy;
  readonly task?: TaskPolicy;
  readonly rounds?: RoundsPolicy;
}

export interface RoundsPolicy {
  readonly multiRoundTrip?: boolean;
  readonly cancelBetweenRounds?: 'stop-retrying' | 'notification';
  readonly requestStateTtlMs?: number;
  readonly freshProgressToken?: boolean;
}

export interface OperationSpec extends Policy {
  readonly name: string;
  readonly method: Method;
  readonly description?: string;
  /** For resources/read: the resource URI or URI template it reads. */
  readonly uri?: string;
  readonly direction?: 'client-to-server' | 'server-to-client';
  readonly transports?: readonly Transport[];
  readonly 'x-mcprely-ignore'?: readonly IgnoreEntry[];
  /** Fields mcprely init inferred from untrusted hints, not yet confirmed. */
  readonly 'x-mcprely-unverified'?: readonly string[];
  /** How mcprely probe calls this tool: example arguments, and how it sees whether the tool's work is still running. */
  readonly probe?: { readonly arguments?: Readonly<Record<string, unknown>>; readonly workStatus?: WorkStatusProbe };
}

export interface Annotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface Timeouts {
  readonly idleMs?: number;
  readonly maxMs?: number;
  readonly resetIdleOnProgress?: boolean;
  readonly resetMaxOnProgress?: boolean;
  readonly keepaliveCountsAsActivity?: boolean;
  readonly cancelOnTimeout?: boolean;
  readonly lateResponse?: 'ignore' | 'deliver';
}

export interface ProgressPolicy {
  readonly emits?: boolean;
  readonly minIntervalMs?: number;
  readonly monotonic?: boolean;
  readonly stopsOnCompletion?: boolean;
  readonly stopsOnCancellation?: boolean;
  readonly maxIntervalMs?: number;
  readonly receiverMinIntervalMs?: number;
  readonly tokens?: 'per-request' | 'shared';
  readonly httpStream?: 'request' | 'listen';
}

export interface CancellationPolicy {
  readonly stopsWork?: 'immediately' | 'checkpoint' | 'never';
  readonly suppressResponseAfterCancel?: boolean;
  readonly httpSignal?: 'close-stream' | 'notification';
  readonly disconnectIsCancellation?: boolean;
  readonly invalidOrLate?: 'ignore' | 'error-response';
  readonly clientMayCancel?: boolean;
  readonly serverSendsCancelled?: boolean;
  readonly handler?: 'cooperative' | 'checks-between-steps' | 'never-checks';
}

export interface Backoff {
  readonly baseMs?: number;
  readonly capMs?: number;
  readonly jitter?: Jitter;
}

export interface RetryPolicy {
  readonly automatic?: 'never' | 'on-transport-error' | 'on-timeout' | 'on-transport-error-or-timeout';
  readonly maxAttempts?: number;
  readonly backoff?: Backoff;
  readonly newRequestId?: boolean;
  readonly reconcileFirst?: boolean;
  readonly newProgressToken?: boolean;
}

export interface IdempotencyPolicy {
  readonly keyArgument?: string;
  readonly fingerprint?: readonly string[];
  readonly onKeyReuseWithOtherArguments?: 'reject' | 'replay' | 'execute';
  readonly ledger?: {
    readonly store?: 'memory' | 'sqlite' | 'postgres' | 'mysql' | 'redis' | 'dynamodb' | 'upstream' | 'other';
    readonly durable?: boolean;
    readonly sharedAcrossReplicas?: boolean;
    readonly atomicWithEffect?: boolean;
  };
  readonly effect?: {
    readonly kind?: 'local-record' | 'external-api';
    readonly boundary?: 'outbox' | 'upstream-key' | 'none';
  };
  readonly returns?: 'defensive-copy' | 'shared-reference';
  readonly reconcileByKey?: boolean;
  readonly keyTtlMs?: number;
  readonly whileInFlight?: 'wait' | 'conflict' | 'replay' | 'execute';
  readonly keyScope?: 'global' | 'tenant' | 'grant';
}

/**
 * A read-only tool of the server that tells how much work is running: the probe calls it while a cancelled
 * request's work would still run, and so sees whether cancellation stops the work (which the wire does not
 * show where the cancellation is a closed stream).
 */
export interface WorkStatusProbe {
  /** The tool to call (read-only: the probe calls it several times). */
  readonly tool: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Where the count of running units of work is in its result: a dotted path in structuredContent, or in the JSON of its text. */
  readonly field: string;
}

export interface FlowControlPolicy {
  readonly progressBuffer?: {
    readonly capacity?: number;
    readonly overflow?: 'coalesce-then-drop-oldest' | 'drop-oldest' | 'drop-newest' | 'block' | 'unbounded';
  };
  readonly preserveFinal?: boolean;
  readonly refetchOnDrop?: boolean;
}

export interface RecoveryPolicy {
  readonly reconnect?: {
    readonly newRequestId?: boolean;
    readonly sendLastEventId?: boolean;
    readonly backoff?: Backoff;
    readonly restoresFilter?: boolean;
    readonly carriesToolName?: boolean;
  };
  readonly refetch?: readonly string[];
  readonly dedupeBy?: string;
  readonly replayUnsafeMutations?: boolean;
}

export interface TaskPolicy {
  readonly used?: boolean;
  readonly cancel?: 'acknowledge-then-checkpoint' | 'immediate-terminal';
  readonly cancelVia?: 'tasks/cancel' | 'notifications/cancelled';
  readonly ackIsTerminal?: boolean;
  readonly store?: 'durable' | 'in-memory';
  readonly survivesDisconnect?: boolean;
  readonly clientWaits?: 'poll' | 'listen' | 'none';
  readonly pollIntervalMs?: number;
  readonly ttlMs?: number;
}
