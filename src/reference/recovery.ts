import { createRequire } from 'node:module';
import { InvalidArgumentError } from './errors.js';
import type { RetryClass } from './classify-retry.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import { requireInteger, requireNonEmptyString, requireOneOf, requireRequestId, type RequestId } from './validate-arguments.js';
import { SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';

/** Headers of every SSE response: proxies must deliver each event at once (X-Accel-Buffering: no). A new object each call. */
export function sseHeaders(): Record<string, string> {
  return { ...SSE_RESPONSE_HEADERS };
}

/**
 * The required SSE headers a response lacks (or gives another value), as `Name: value` of the requirement.
 * Header names are case-insensitive; a value may be one of several, separated by commas or semicolons
 * (`text/event-stream; charset=utf-8`, `no-cache, no-transform`).
 */
export function missingSseHeaders(headers: Readonly<Record<string, string>>): string[] {
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value.toLowerCase()]));
  return Object.entries(sseHeaders())
    .filter(
      ([name, value]) =>
        !(byName.get(name.toLowerCase()) ?? '')
          .split(/[,;]/)
          .map((part) => part.trim())
          .includes(value),
    )
    .map(([name, value]) => `${name}: ${value}`);
}

/** An SSE comment line that keeps a quiet stream open. Clients ignore it; it is not progress and never resets an idle timeout. */
export const KEEP_ALIVE_COMMENT = ':\r\n';

export interface ReconnectPlan {
  /** The request is re-issued as a new request with this id. */
  readonly newRequestId: RequestId;
  readonly sendLastEventId: false;
  /** Authoritative reads that restore what the drop may have lost, sorted and without repeats. */
  readonly refetch: readonly string[];
  /** What happens to the request that was in flight: re-sent (SAFE), re-sent with its key after reconciling (CONDITIONAL), or never re-sent (UNSAFE). */
  readonly inFlight: 'resend-with-new-id' | 'reconcile-then-resend-with-same-key' | 'reconcile-only' | 'none';
}

/**
 * The plan after a stream drops. No Last-Event-ID (the current revision has no resumable streams; where an
 * older one allows resuming, the plan takes the same safe path): open a new request with a new id, refetch the
 * affected state, and never replay an unsafe mutation that was in flight.
 */
export function reconnectPlan(options: {
  specVersion: SpecVersion;
  previousRequestId: RequestId;
  affected: readonly string[];
  inFlight?: RetryClass;
}): ReconnectPlan {
  requireOneOf('specVersion', options?.specVersion, SPEC_VERSIONS);
  const previous = requireRequestId('previousRequestId', options.previousRequestId);
  if (!Array.isArray(options.affected)) throw new InvalidArgumentError('affected', 'must be a list of refetch targets');
  for (const [index, target] of options.affected.entries()) requireNonEmptyString(`affected[${index}]`, target);
  const inFlight =
    options.inFlight === undefined
      ? 'none'
      : { SAFE: 'resend-with-new-id', CONDITIONAL: 'reconcile-then-resend-with-same-key', UNSAFE: 'reconcile-only' }[
          requireOneOf('inFlight', options.inFlight, ['SAFE', 'CONDITIONAL', 'UNSAFE'] as const)
        ];
  return {
    newRequestId: `${String(previous)}-retry`,
    sendLastEventId: false,
    refetch: [...new Set(options.affected)].sort(),
    inFlight: inFlight as ReconnectPlan['inFlight'],
  };
}

export interface BackoffWindow {
  readonly ceilingMs: number;
  readonly floorMs: number;
  readonly delayMs: number;
}

/** How the delay is spread below the ceiling: `full` over [0, ceiling], `equal` over [ceiling/2, ceiling], `none` not at all. */
export type Jitter = 'full' | 'equal' | 'none';
export const JITTERS: readonly Jitter[] = ['full', 'equal', 'none'];

/**
 * Capped exponential backoff with deterministic jitter: ceiling = min(capMs, baseMs × 2^attempt), and the delay
 * chosen in the jitter's window by a hash of `clientId:attempt`, so tests are reproducible and different clients
 * spread over the window instead of returning as a herd. The window is [0, ceiling] for `full`, [ceiling/2 (at
 * least 1), ceiling] for `equal` (the lesson's choice, the default) and the ceiling itself for `none`, which
 * spreads nobody and is there to show why jitter matters.
 */
export function backoffDelay(
  clientId: string,
  attempt: number,
  options: { baseMs?: number; capMs?: number; jitter?: Jitter } = {},
): BackoffWindow {
  requireNonEmptyString('clientId', clientId);
  requireInteger('attempt', attempt, 0);
  const baseMs = requireInteger('baseMs', options.baseMs ?? 250, 1);
  const capMs = requireInteger('capMs', options.capMs ?? 8000, 1);
  const jitter = requireOneOf('jitter', options.jitter ?? 'equal', JITTERS);
  const ceilingMs = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 60));
  const floorMs = jitter === 'full' ? 0 : jitter === 'none' ? ceilingMs : Math.max(1, Math.floor(ceilingMs / 2));
  const digest = nodeCrypto().createHash('sha256').update(`${clientId}:${attempt}`).digest();
  const fraction = digest.readUInt32BE(0) / 0x1_0000_0000;
  const delayMs = Math.min(ceilingMs, floorMs + Math.floor(fraction * (ceilingMs - floorMs + 1)));
  return { ceilingMs, floorMs, delayMs };
}

let crypto: typeof import('node:crypto') | undefined;

/** node:crypto when a jitter is first drawn, not at load: the lint rules import this module and never draw one (loading it costs ~8 ms). */
function nodeCrypto(): typeof import('node:crypto') {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto;
}
