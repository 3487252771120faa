/**
 * Floors below which a declared duration makes an operation unusable: the rules' degenerate-value checks read
 * them (through the derived fields `$roundTripMs` and `$progressRateLimitFloorMs`) and the fixtures that show
 * them play them, so each number lives here only.
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
} as const;
