import { createServer, type RequestListener, type Server } from 'node:http';

/** How long a client may take to send a request before its connection is closed (ms): its head, and all of it. */
export interface ListenerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/**
 * The limits of mcprely's listeners (the proxy's relay, the probe-client's scenario server). A host sends a request in
 * milliseconds; one that trickles its head or body holds a socket for nothing (slowloris), and Node's own limits
 * (60 s and 5 min) were checked only every 30 s. They bound receiving a request only: a response, an SSE stream that
 * lasts minutes, is never cut by them.
 */
export const LISTENER_LIMITS: ListenerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

/** An HTTP server that closes a connection whose request is not in within `limits` (408 when nothing was answered yet). */
export function createListener(handler: RequestListener, limits: ListenerLimits = LISTENER_LIMITS): Server {
  return createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often the two are checked: at Node's default (30 s) a slow client outlives them by as much.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(limits.headersTimeoutMs / 4)),
    },
    handler,
  );
}
