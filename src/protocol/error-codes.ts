/**
 * JSON-RPC 2.0's codes and the codes MCP allocates from -32020 on (schema.ts of modelcontextprotocol/modelcontextprotocol:
 * PARSE_ERROR … INTERNAL_ERROR, HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION; the
 * last three since the stateless revision, which src/spec's revision facts say).
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
  /** A request the receiver cancelled (LSP's RequestCancelled; the Python SDK sends it, MCP's schema does not name it). */
  requestCancelled: -32800,
} as const;
