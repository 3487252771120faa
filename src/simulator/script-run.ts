import type { RequestReconnect } from './request-reconnect.js';
import type { TranscriptEntry } from './transcript.js';

/** How one request of a script ended, as the server and the client saw it. */
export interface RequestEnd {
  /** The server's state of the request; undefined when the server never took it. */
  readonly state: 'in_progress' | 'completed' | 'cancelled' | undefined;
  /** Responses that reached the client. */
  readonly responsesDelivered: number;
  /** Messages the server sent for the request after the client cancelled it. */
  readonly messagesAfterCancel: number;
  /** Error responses to a cancellation that came after the request had ended. */
  readonly lateCancelReplies: number;
  /** The client cancelled (by the signal below), or stopped waiting without cancelling. */
  readonly cancelledByClient: boolean;
  readonly cancelSignal: 'close-stream' | 'notification' | undefined;
  readonly abandoned: boolean;
  /** Responses the client handed to its caller after it had given up on the request. */
  readonly lateHandedToCaller: number;
  readonly reconnect: RequestReconnect | undefined;
  /** The server ended the request (a subscription) itself: whether the client was told; undefined when it did not. */
  readonly endedByServerTold: boolean | undefined;
}

/** How one task of a script ended: its status on the server, what the client believes, polls the server could not answer. */
export interface TaskEnd {
  /** undefined when the server no longer knows the task (lost with a connection, or past its TTL). */
  readonly status: string | undefined;
  readonly final: { readonly status: string; readonly assumed: boolean } | undefined;
  readonly unknownAnswers: number;
}

/**
 * What running a script (a fixture whose steps never wait on a ledger) leaves: its transcript and how each
 * request and task ended, as plain data. Review's race rows are scripts read this way.
 */
export interface ScriptRun {
  readonly transcript: readonly TranscriptEntry[];
  readonly requests: ReadonlyMap<string, RequestEnd>;
  readonly tasks: ReadonlyMap<string, TaskEnd>;
}
