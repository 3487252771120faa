/**
 * The MCP wire vocabulary the live half speaks: JSON-RPC and MCP error codes, Streamable HTTP header names, the
 * reserved `_meta` keys, the log levels. Names as the schema gives them (schema/<revision>/schema.ts of
 * modelcontextprotocol/modelcontextprotocol); what differs between revisions is a fact in revision-facts.ts.
 */

/**
 * JSON-RPC 2.0's codes and the codes MCP allocates from -32020 on (schema.ts: PARSE_ERROR … INTERNAL_ERROR,
 * HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION; the last three since the
 * stateless revision).
 */
export const ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
  /**
   * JSON-RPC's implementation-defined server-error range: a request an HTTP listener refused before reading it (a
   * foreign Host or Origin), as the official SDKs' Host and Origin validation answers it.
   */
  requestRefused: -32000,
} as const;

/** Streamable HTTP request headers, as the transport page spells them (names compare case-insensitively). */
export const HTTP_HEADERS = {
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  sessionId: 'Mcp-Session-Id',
  lastEventId: 'Last-Event-ID',
} as const;

/** The reserved `_meta` keys of the per-request envelope and of results (schema.ts: RequestMetaObject, ResultMetaObject). */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The body field the `Mcp-Name` header mirrors, per method (streamable-http.mdx, Standard Request Headers). */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The log levels, least severe first (schema.ts: LoggingLevel, RFC 5424's severities). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * An `Mcp-Name` (or `Mcp-Param-*`) header value as the body would hold it: a `=?base64?…?=` sentinel decoded
 * (streamable-http.mdx, Value Encoding), anything else as it is; undefined for a sentinel that is not canonical Base64
 * of UTF-8 text (the server rejects it as a header mismatch).
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX) || value.length < 11) return value;
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
