import type { Readable, Writable } from 'node:stream';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import { readLines } from '../mcp-serving/stdio-lines.js';
import { ScenarioSession } from './scenario-session.js';
import type { ScenarioTiming } from './scenarios.js';

/**
 * The scenario server over stdio: a host starts `mcprely probe-client --stdio` as a server command. One session,
 * newline-delimited JSON-RPC on `input` and `output`; a cancellation stops its call at once. `ended` settles when the
 * client closes the input (the host ended the session).
 */
export function serveStdio(
  input: Readable,
  output: Writable,
  timing: ScenarioTiming,
  recordPath?: string,
): { readonly session: ScenarioSession; readonly ended: Promise<void> } {
  const session = new ScenarioSession('stdio', 'stdio', timing, recordPath);
  const write = (unshaped: JsonObject) => {
    if (session.ended) return;
    const message = session.shaped(unshaped);
    session.sent(message);
    output.write(`${JSON.stringify(message)}\n`);
  };
  const ended = readLines(
    input,
    (member) => {
      if (session.ended) return;
      const handled = session.receive(member);
      if (handled.kind === 'reply') write(handled.message);
      else if (handled.kind === 'cancel') session.call(handled.requestId)?.cancel();
      else if (handled.kind === 'call') session.startCall(handled, { send: (reply) => write(reply), drop: () => undefined });
    },
    (line) => {
      if (session.ended) return;
      session.receiveText(line);
      write(errorReply(null, ERROR_CODES.parseError, 'Parse error: each line is one JSON-RPC message'));
    },
  );
  return { session, ended };
}
