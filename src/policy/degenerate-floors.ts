import { SDK_DEFAULT_REQUEST_TIMEOUT_MS } from '../spec/host-limits.js';

/**
 * Floors below which a declared duration makes an operation unusable or a limit limits nothing: the rules'
 * degenerate-value checks read them (through derived fields, src/rules/derived-fields.ts) and the fixtures and
 * expectations that show them play them, so each number lives here only.
 */
export const DEGENERATE_FLOORS = {
  /**
   * The shortest time in which an answer to a request can be expected: one round trip. A network round trip
   * takes tens of milliseconds and a local stdio one a few, before the handler has done anything; 100 ms is the
   * floor the probe already allows a message on the wire after a cancellation (src/probe/session.ts,
   * `inFlightMs`: "at least 100 ms"). A request timeout (idle or maximum) below it cancels the request before
   * any answer can arrive.
   */
  roundTripMs: 100,
  /**
   * The shortest progress rate limit that still limits anything. The rules progress-rate-limit and
   * progress-receiver-rate-limit advise 250 to 1000 ms (and suggest 250), and the lesson's worked example
   * ("Timeouts Need Two Clocks") reports progress every 400 ms; a limit of one notification per round trip
   * (the floor above) is the least that keeps a fast worker from flooding the transport, as the lesson asks.
   * Below it (1 ms is a thousand notifications a second) the limit bounds nothing a client, proxy or network
   * can consume.
   */
  progressRateLimitMs: 100,
  /**
   * The smallest first wait (backoff base) that spreads a herd's first retries at all: a herd of a thousand clients
   * with full jitter comes back within the base, so below 10 ms more than a tenth of it lands in one millisecond
   * (the share the herd-spread check allows), and 5 ms is below a network round trip. The rules retry-backoff and
   * recovery-backoff (small-base) refuse less; the herd fixtures' herd-first-spread check fails it.
   */
  backoffBaseMs: 10,
  /**
   * The task poll interval (task.pollIntervalMs) below which a server asks clients to poll faster than the SDK's own
   * pace. The TypeScript SDK's client polls a task every `task.pollInterval ?? defaultTaskPollInterval ?? 1000` ms
   * (Protocol.requestStream), so 1000 ms is the pace a client keeps when a server suggests nothing, and both task
   * specifications show 5000 ms in their examples. The 2026-07-28 extension lets a server rate-limit only clients
   * that poll faster than it suggested, so the suggestion itself is the limit. (Below a round trip it limits nothing.)
   */
  taskPollMs: 1000,
  /**
   * The time below which a Multi Round-Trip Request's requestState (rounds.requestStateTtlMs) gives the client less
   * time to answer than the same question gets elsewhere: the input a round asks for (an elicitation a person
   * answers, a sampling an LLM runs) is what a 2025-11-25 server asks with a request of its own and waits for with
   * its request timeout, 60 s by default in the TypeScript SDK. (Below a round trip it expires before the next round.)
   */
  requestStateTtlMs: SDK_DEFAULT_REQUEST_TIMEOUT_MS,
} as const;
