import { ERROR_CODES } from '../protocol/error-codes.js';
import { METHODS } from '../protocol/methods.js';

/** A JSON-RPC message received from the server, with when it arrived (probe clock, ms) and on which stream. */
export interface Received {
  readonly at: number;
  readonly message: Record<string, unknown>;
  /** The request whose response stream carried it (Streamable HTTP), or undefined (stdio, or the probe's notifications). */
  readonly stream?: number;
}

export const isProgress = (message: Record<string, unknown>) => message['method'] === METHODS.progress;
export const progressValue = (message: Record<string, unknown>) => (message['params'] as { progress?: unknown } | undefined)?.progress;

const CANCEL_WORDS = /\b(cancel(?:l?ed|lation)?|abort(?:ed)?)\b/i;

/**
 * The message says, by its content, that it answers a cancellation: an error with the request-cancelled code
 * or words, or a tool result flagged isError whose text says cancelled or aborted. Whenever it arrives, it was
 * written after the server saw the cancellation: no in-flight allowance excuses it.
 */
export function answersCancellation(message: Record<string, unknown>): boolean {
  const error = message['error'] as { code?: unknown; message?: unknown } | undefined;
  if (error !== undefined)
    return error.code === ERROR_CODES.requestCancelled || (typeof error.message === 'string' && CANCEL_WORDS.test(error.message));
  const result = message['result'] as { isError?: unknown; content?: unknown } | undefined;
  if (result?.isError !== true || !Array.isArray(result.content)) return false;
  return result.content.some(
    (part) => typeof (part as { text?: unknown })?.text === 'string' && CANCEL_WORDS.test((part as { text: string }).text),
  );
}
