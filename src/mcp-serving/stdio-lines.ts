import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * The stdio transport's framing for a server: newline-delimited JSON-RPC on `input`. Each message of a line (each
 * member of a batch) goes to `onMessage`; a line that is not JSON goes to `onUnreadable` (the server answers a parse
 * error). Blank lines are skipped. Settles when the client closes the input, or (`bound`) once a line grows past
 * `bound.maxLineBytes` without its end: `bound.onTooLong` is told, and nothing more is read.
 */
export function readLines(
  input: Readable,
  onMessage: (message: unknown) => void,
  onUnreadable: (line: string) => void,
  bound?: { readonly maxLineBytes: number; readonly onTooLong: () => void },
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  // An input destroyed (closed without its end) ends the lines too.
  input.once('close', () => lines.close());
  if (bound !== undefined) {
    let pending = 0;
    const watch = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const end = text.lastIndexOf(10);
      pending = end === -1 ? pending + text.length : text.length - end - 1;
      if (pending <= bound.maxLineBytes) return;
      input.off('data', watch);
      bound.onTooLong();
      lines.close();
      input.pause();
    };
    input.on('data', watch);
  }
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
