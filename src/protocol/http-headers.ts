import { METHODS } from './methods.js';
/** Streamable HTTP request headers, as the transport page spells them (names compare case-insensitively). */
export const HTTP_HEADERS = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  sessionId: 'Mcp-Session-Id',
  lastEventId: 'Last-Event-ID',
} as const;

type HeaderKeys = { readonly [Name in keyof typeof HTTP_HEADERS]: Lowercase<(typeof HTTP_HEADERS)[Name]> };

/** The same headers as node:http keys them in `IncomingMessage.headers` (lower case). */
export const HTTP_HEADER_KEYS = Object.fromEntries(
  Object.entries(HTTP_HEADERS).map(([name, header]) => [name, header.toLowerCase()]),
) as HeaderKeys;

/** The media type of a Server-Sent Events stream (a response's Content-Type starts with it; a GET accepts it). */
export const SSE_CONTENT_TYPE = 'text/event-stream';

/** Headers of every SSE response: no cache, and proxies deliver each event at once (X-Accel-Buffering: no). */
export const SSE_RESPONSE_HEADERS = {
  'Content-Type': SSE_CONTENT_TYPE,
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
} as const;

/** The body field the `Mcp-Name` header mirrors, per method (streamable-http.mdx, Standard Request Headers). */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  [METHODS.toolsCall]: 'name',
  [METHODS.promptsGet]: 'name',
  [METHODS.resourcesRead]: 'uri',
};
