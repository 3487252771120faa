/** A JSON object (not null, not an array), as the messages and their params are. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a JSON object, else undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** A JSON-RPC request: a method and an id. */
export function isRequest(message: Record<string, unknown>): boolean {
  return typeof message['method'] === 'string' && 'id' in message;
}

/** A JSON-RPC response: a result or an error. */
export function isResponse(message: Record<string, unknown>): boolean {
  return message['result'] !== undefined || message['error'] !== undefined;
}
