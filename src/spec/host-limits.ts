import type { Transport } from '../protocol/transports.js';

/**
 * Limits hosts apply on top of the spec, as one widely used host documented them (October 2026, cited by
 * the article in sources.ts). The spec itself gives no default timeouts.
 */
export const HOST_LIMITS = {
  /**
   * The idle timeout a host applies when a server sends neither a response nor progress: progress resets it.
   * It is an idle limit, not a cap on the whole call.
   */
  idleMs: { 'streamable-http': 5 * 60_000, stdio: 30 * 60_000 } satisfies Record<Transport, number>,
  /** Calls in the main conversation that run longer than this are moved into a background task. */
  backgroundAfterMs: 2 * 60_000,
  /** A progress interval that keeps intermediaries' and hosts' idle timers quiet (the article: every 10 to 20 s). */
  keepAliveProgressMs: { from: 10_000, to: 20_000 },
} as const;

/** The TypeScript SDK's default request timeout, when a client sets none. */
export const SDK_DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
