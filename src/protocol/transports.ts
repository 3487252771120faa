/** The MCP transports, as a manifest names them and as mcprely spells them inside. */
export const TRANSPORTS = ['stdio', 'streamable-http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** How a recorded session (the trace format users keep and read) names each transport. */
export const TRACE_TRANSPORT = { stdio: 'stdio', 'streamable-http': 'http' } as const satisfies Record<Transport, string>;
export type TraceTransport = (typeof TRACE_TRANSPORT)[Transport];

export function isTraceTransport(value: unknown): value is TraceTransport {
  return (Object.values(TRACE_TRANSPORT) as unknown[]).includes(value);
}
