import type { SpecVersion } from '../spec/revisions.js';
import type { TraceTransport } from '../protocol/transports.js';

/** Who sent a message: the host's MCP client or the server. */
export type Party = 'client' | 'server';

/** One JSON-RPC message of a session, as a recording saw it pass. */
export interface SessionMessage {
  /** The trace line it was read from (1-based): where a finding about it points. */
  readonly line: number;
  /** When it passed, in ms since the session started. */
  readonly at: number;
  readonly from: Party;
  /** Streamable HTTP: the stream it came on (the POST that opened it, or the GET stream); absent over stdio. */
  readonly stream?: string;
  /** Streamable HTTP: the id of the SSE event that carried it, when the server gave one (what a client resumes after). */
  readonly eventId?: string;
  /** The message as parsed (one member of a batch, each with the batch's line). */
  readonly message: unknown;
}

/** Where a stream event was recorded: its trace line and time. */
export interface StreamMoment {
  readonly line: number;
  readonly at: number;
}

/**
 * Streamable HTTP: one HTTP exchange as the relay saw it — a POST and its response (JSON or an SSE stream), a GET
 * stream, a DELETE — with the few headers the judges read (never a credential or the session id).
 */
export interface SessionStream {
  /** "POST 3": the method and the exchange's number in the session (messages name their stream by it). */
  readonly id: string;
  readonly method: string;
  readonly opened: StreamMoment;
  /** The request's `MCP-Protocol-Version` header. */
  readonly protocolVersion?: string;
  /** The request's `Last-Event-ID` header: the client resuming a stream. */
  readonly lastEventId?: string;
  /** The response's status and its content-type, cache-control and x-accel-buffering headers (lower-case names). */
  response?: StreamMoment & { readonly status: number; readonly headers: Readonly<Record<string, string>> };
  /** When it ended, and who ended it: the server (the response ended, or broke) or the client (it closed it first). */
  closed?: StreamMoment & { readonly by: Party };
}

/** A recorded session: its messages in the order they passed, and how long it was watched. */
export interface SessionTranscript {
  readonly transport: TraceTransport;
  /** The revision the two parties agreed on, when the session shows it (or the recording was told). */
  readonly revision?: SpecVersion;
  readonly messages: readonly SessionMessage[];
  /** Streamable HTTP: each exchange and how it ended, when the recording kept them (absent: it did not, as over stdio). */
  readonly streams?: readonly SessionStream[];
  /** When the recording stopped, in ms since the session started: nothing after it was seen. */
  readonly endedAt: number;
}
