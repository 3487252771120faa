import type { Readable, Writable } from 'node:stream';
import { ERROR_CODES } from '../protocol/error-codes.js';
import type { SpecVersion } from '../spec/revisions.js';
import { CoalescingWriter, markedWithLoss, progressNotificationToken } from '../mcp-serving/coalescing-writer.js';
import { errorReply, type JsonObject } from '../mcp-serving/json-rpc-replies.js';
import { MAX_BODY } from '../mcp-serving/http-exchange.js';
import { envelopeRevision, shapedForRevision } from '../mcp-serving/result-shape.js';
import { serveMessage } from '../mcp-serving/served-message.js';
import { readLines } from '../mcp-serving/stdio-lines.js';
import { type McpCallRequest, mcprelyToolServer } from './mcprely-tool-server.js';
import { type CallSink, ToolCalls } from './tool-calls.js';

/**
 * `mcprely mcp` over stdio: one session, newline-delimited JSON-RPC on `input` and `output`, either revision. A line
 * longer than a message may be (4 MiB) ends the session, told on `errors`; so does a client that closes its end of
 * the output. `ended` settles when the client has closed
 * the input and the calls it made have been answered.
 */
export function serveMcpStdio(
  input: Readable,
  output: Writable,
  options: { readonly workingFolder: string; readonly version: string; readonly errors: Writable },
): { readonly ended: Promise<void> } {
  const server = mcprelyToolServer(options.version);
  const calls = new ToolCalls(options.workingFolder);
  let revision: SpecVersion | undefined;
  let gone = false;
  // The client closed its end of the pipe (EPIPE): the session is over, nothing more can reach it.
  output.on('error', () => {
    gone = true;
    calls.stopAll();
    input.destroy();
  });
  // A client that does not read stdout: reading its requests stops until what waits is written (so replies cannot pile
  // up), progress waits coalesced per token, and every answer waits in order, whole.
  // Once the lines have ended (the client closed the input, or a line past the bound stopped the reading), nothing resumes it.
  let reading = true;
  const writer = new CoalescingWriter(output, (waiting) => {
    if (waiting) input.pause();
    else if (reading) input.resume();
  });
  const line = (message: JsonObject) => `${JSON.stringify(shapedForRevision(message, revision, server.info))}\n`;
  const write = (message: JsonObject) => {
    if (!gone) writer.message(line(message));
  };
  const sinkOf = (call: McpCallRequest): CallSink => ({
    send: (sent) => {
      if (gone) return;
      const token = progressNotificationToken(sent);
      if (token !== undefined) writer.progress(token, line(sent));
      else {
        writer.message(line(markedWithLoss(sent, writer.lostOf(call.token))));
        writer.forget(call.token);
      }
    },
    end: () => undefined,
  });
  const ended = readLines(
    input,
    (member) => {
      const served = serveMessage(server, member, { transport: 'stdio', ...(revision === undefined ? {} : { sessionRevision: revision }) });
      if (served.kind === 'reply' && served.revision !== undefined) revision = served.revision;
      // A client of a revision without a handshake names it in each request's envelope.
      revision ??= envelopeRevision(member);
      if (served.kind === 'reply') write(served.message);
      else if (served.kind === 'cancel') calls.cancel(served.requestId);
      else if (served.kind === 'call') calls.start(served, sinkOf(served));
    },
    () => write(errorReply(null, ERROR_CODES.parseError, 'Parse error: each line is one JSON-RPC message')),
    {
      maxLineBytes: MAX_BODY,
      onTooLong: () => options.errors.write(`mcprely mcp: a message longer than ${MAX_BODY} bytes: the session ends\n`),
    },
  ).then(() => {
    reading = false;
    return calls.settled();
  });
  return { ended };
}
