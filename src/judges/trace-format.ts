import type { Party, SessionMessage, SessionTranscript } from './session-transcript.js';
import { StreamBook, type StreamRecord, streamRecordOf } from './stream-records.js';
import { isRecord } from '../protocol/message-guards.js';
import { isTraceTransport, type TraceTransport } from '../protocol/transports.js';

/**
 * A session trace is JSON Lines (schemas/trace.schema.json): a header, then one record per message as it passed —
 * `{"at": ms, "from": "client"|"server", "message": …}`, or `"text"` for a line that was not JSON — and an end
 * record when the recording stopped. Times are ms since the header's `started`. Over Streamable HTTP each exchange
 * also has its stream records (`stream-records.ts`): `{"at", "from", "stream", "request" | "response" | "closed"}`.
 */
export const TRACE_VERSION = 1;

export interface TraceHeader {
  readonly mcprelyTrace: typeof TRACE_VERSION;
  readonly transport: TraceTransport;
  /** When the recording started (ISO 8601). */
  readonly started: string;
  /** The server's program or endpoint, without arguments or query (which may hold secrets). */
  readonly server?: string;
}

export function traceHeaderLine(header: TraceHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/**
 * One message as a trace record: `raw` as it was sent when it is JSON (`isJson`: the caller parsed it), as a
 * string when it is not. The message's own bytes are kept (no re-serializing): the trace shows what passed.
 */
export function traceMessageLine(at: number, from: Party, raw: string, isJson: boolean, stream?: string, eventId?: string): string {
  const time = Math.round(at * 10) / 10;
  const where =
    (stream === undefined ? '' : `,"stream":${JSON.stringify(stream)}`) +
    (eventId === undefined ? '' : `,"event":${JSON.stringify(eventId)}`);
  return isJson
    ? `{"at":${time},"from":"${from}"${where},"message":${raw.trim()}}\n`
    : `{"at":${time},"from":"${from}"${where},"text":${JSON.stringify(raw)}}\n`;
}

/** One stream record of an HTTP exchange (its request, its response's status and headers, its end) as a trace line. */
export function traceStreamLine(at: number, from: Party, stream: string, record: StreamRecord): string {
  return `${JSON.stringify({ at: Math.round(at * 10) / 10, from, stream, ...record })}\n`;
}

export function traceEndLine(at: number, reason: string): string {
  return `{"at":${Math.round(at * 10) / 10},"end":${JSON.stringify(reason)}}\n`;
}

/** Where a trace is unusable: its line and column, and what is wrong. */
export interface TraceProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export type TraceRead =
  | { readonly ok: true; readonly transcript: SessionTranscript; readonly header: TraceHeader }
  | { readonly ok: false; readonly problems: readonly TraceProblem[] };

const MAX_PROBLEMS = 20;

/** Reads a trace: every line checked, every problem reported (up to 20) with its line and column. */
export function readTrace(text: string): TraceRead {
  const problems: TraceProblem[] = [];
  const messages: SessionMessage[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let header: TraceHeader | undefined;
  let endedAt = 0;
  const book = new StreamBook();
  const problem = (line: number, message: string, column = 1) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ line, column, message });
  };
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const textLine = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (textLine.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(textLine);
    } catch (error) {
      const at = /position (\d+)/.exec(String((error as Error).message));
      problem(line, 'the line is not JSON: each line of a trace is one JSON record', at === null ? 1 : Number(at[1]) + 1);
      continue;
    }
    if (!isRecord(value)) {
      problem(line, 'the line is not a JSON object');
      continue;
    }
    if (header === undefined) {
      if (value['mcprelyTrace'] !== TRACE_VERSION || !isTraceTransport(value['transport']) || typeof value['started'] !== 'string') {
        problem(
          line,
          `the first line is not a trace header: {"mcprelyTrace": ${TRACE_VERSION}, "transport": "stdio" | "http", ` +
            '"started": "<ISO time>"} (record one with mcprely proxy --record)',
        );
        break;
      }
      header = value as unknown as TraceHeader;
      continue;
    }
    const at = value['at'];
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) {
      problem(line, '"at" must be the ms since the trace started (a number, 0 or more)');
      continue;
    }
    if (at < endedAt) {
      problem(line, `"at" goes back in time (${at} after ${endedAt}): records are in the order they passed`);
      continue;
    }
    endedAt = at;
    if ('end' in value) continue;
    const from = value['from'];
    if (from !== 'client' && from !== 'server') {
      problem(line, '"from" must be "client" or "server"');
      continue;
    }
    const stream = value['stream'];
    if (stream !== undefined && typeof stream !== 'string') {
      problem(line, '"stream" must be a string when given');
      continue;
    }
    const eventId = value['event'];
    if (eventId !== undefined && (typeof eventId !== 'string' || stream === undefined)) {
      problem(line, '"event" (the SSE event id that carried the message) must be a string, on a record with its "stream"');
      continue;
    }
    if ('text' in value) continue;
    const streamRecord = streamRecordOf(value);
    if (typeof streamRecord === 'string') {
      problem(line, streamRecord);
      continue;
    }
    if (streamRecord !== undefined) {
      const wrong = stream === undefined ? 'a stream record names its "stream"' : book.add(stream, from, streamRecord, { line, at });
      if (wrong !== undefined) problem(line, wrong);
      continue;
    }
    if (!('message' in value)) {
      problem(
        line,
        'a record has "message" (the JSON-RPC message), "text" (a line that was not JSON), "end", or a stream\'s "request", "response" or "closed"',
      );
      continue;
    }
    const members = Array.isArray(value['message']) ? (value['message'] as unknown[]) : [value['message']];
    const where = { ...(stream === undefined ? {} : { stream }), ...(eventId === undefined ? {} : { eventId: eventId as string }) };
    for (const message of members) messages.push({ line, at, from, ...where, message });
  }
  if (header === undefined && problems.length === 0) problem(1, 'the trace is empty: record one with mcprely proxy --record <file>');
  if (problems.length > 0 || header === undefined) return { ok: false, problems };
  const streams = book.streams.length > 0 ? { streams: book.streams } : {};
  return { ok: true, header, transcript: { transport: header.transport, messages, ...streams, endedAt } };
}
