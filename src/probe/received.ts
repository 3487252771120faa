/** A JSON-RPC message received from the server, with when it arrived (probe clock, ms) and on which stream. */
export interface Received {
  readonly at: number;
  readonly message: Record<string, unknown>;
  /** The request whose response stream carried it (Streamable HTTP), or undefined (stdio, or the probe's notifications). */
  readonly stream?: number;
}

export const isResponse = (message: Record<string, unknown>) => message['result'] !== undefined || message['error'] !== undefined;
export const isProgress = (message: Record<string, unknown>) => message['method'] === 'notifications/progress';
export const progressValue = (message: Record<string, unknown>) => (message['params'] as { progress?: unknown } | undefined)?.progress;
