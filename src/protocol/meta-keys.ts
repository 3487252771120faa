/** The reserved `_meta` keys of the per-request envelope and of results (schema.ts: RequestMetaObject, ResultMetaObject). */
export const META_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/**
 * mcprely's own `_meta` keys (a prefix of its own, as the revisions allow). `progressLost`: on a tools/call result, how
 * many progress notifications of the call were replaced by later ones before they reached a slow reader, so the
 * client knows the progress it saw had gaps and reads the result as the authoritative state.
 */
export const MCPRELY_META_KEYS = {
  progressLost: 'mcprely/progressLost',
} as const;
