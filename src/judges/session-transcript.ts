import type { SpecVersion } from '../spec/revisions.js';

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
  /** The message as parsed (one member of a batch, each with the batch's line). */
  readonly message: unknown;
}

/** A recorded session: its messages in the order they passed, and how long it was watched. */
export interface SessionTranscript {
  readonly transport: 'stdio' | 'http';
  /** The revision the two parties agreed on, when the session shows it (or the recording was told). */
  readonly revision?: SpecVersion;
  readonly messages: readonly SessionMessage[];
  /** When the recording stopped, in ms since the session started: nothing after it was seen. */
  readonly endedAt: number;
}
