import { SDK_DEFAULT_REQUEST_TIMEOUT_MS } from './host-limits.js';

/**
 * The shortest task poll interval (task.pollIntervalMs) that still limits how often a client sends tasks/get.
 *
 * Where it comes from: the TypeScript SDK's client polls a task every `task.pollInterval ?? defaultTaskPollInterval
 * ?? 1000` ms (Protocol.requestStream), so 1000 ms is the pace a client keeps when a server suggests nothing,
 * and both task specifications show 5000 ms in their examples. A server that suggests less asks every client to
 * poll faster than the SDK would on its own; at 1 ms a client sends a tasks/get per millisecond for as long as the
 * task works. The 2026-07-28 extension lets a server rate-limit only clients that poll faster than it suggested, so
 * the suggestion itself is the limit.
 */
export const TASK_POLL_FLOOR_MS = 1000;

/**
 * The shortest time a server keeps the requestState of a Multi Round-Trip Request for the client's next round
 * (rounds.requestStateTtlMs).
 *
 * Where it comes from: the input a round asks for (an elicitation a person answers, a sampling an LLM runs) is what
 * a 2025-11-25 server asks with a request of its own and waits for with its request timeout, 60 s by default in the
 * TypeScript SDK (SDK_DEFAULT_REQUEST_TIMEOUT_MS). A requestState kept for less ends the exchange before the client
 * could answer that same question; one kept for a few milliseconds expires within a single round trip.
 */
export const REQUEST_STATE_FLOOR_MS = SDK_DEFAULT_REQUEST_TIMEOUT_MS;
