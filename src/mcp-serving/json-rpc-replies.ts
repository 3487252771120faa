/** A JSON-RPC message as an MCP server of mcprely reads and writes it. */
export type JsonObject = Record<string, unknown>;

/** A JSON-RPC error answer (`id` null where the request's id could not be read). */
export function errorReply(id: unknown, code: number, message: string, data?: unknown): JsonObject {
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}

/** A JSON-RPC result answer. */
export function resultReply(id: string | number, body: JsonObject): JsonObject {
  return { jsonrpc: '2.0', id, result: body };
}
