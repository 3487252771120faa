import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * The stdio transport's framing for a server: newline-delimited JSON-RPC on `input`. Each message of a line (each
 * member of a batch) goes to `onMessage`; a line that is not JSON goes to `onUnreadable` (the server answers a parse
 * error). Blank lines are skipped. Settles when the client closes the input.
 */
export function readLines(input: Readable, onMessage: (message: unknown) => void, onUnreadable: (line: string) => void): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      onUnreadable(line);
      return;
    }
    for (const member of Array.isArray(message) ? message : [message]) onMessage(member);
  });
  return new Promise<void>((resolve) => lines.once('close', () => resolve()));
}
