import { MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import { MessageStream, type Received } from './message-stream.js';
import type { WireLog } from './wire-log.js';

export type ProbeRevision = SpecVersion;

/** What a POSTed message got back over HTTP (stdio has no such answer). */
export interface PostOutcome {
  readonly status?: number;
  readonly body?: string;
}

/** One request in flight: its own messages (response and progress), and how to cancel it on this transport. */
export interface CallHandle {
  readonly id: string | number;
  readonly progressToken?: string | number;
  readonly messages: MessageStream;
  /** Response headers of the request (Streamable HTTP only). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Closes the request's response stream (Streamable HTTP); false when there is none. */
  closeStream(): boolean;
}

/**
 * A connection to the server under probe, over stdio or Streamable HTTP. Messages are routed to the call
 * they belong to (a response by id, progress by token); everything else lands in `other`.
 */
export abstract class Connection {
  readonly other = new MessageStream();
  protected readonly calls = new Map<string, MessageStream>();
  protected readonly tokens = new Map<string, MessageStream>();
  sessionId: string | undefined;
  revision: ProbeRevision = MOST_DEPLOYED_REVISION;

  constructor(
    readonly transport: 'stdio' | 'streamable-http',
    protected readonly log: WireLog,
    protected readonly clock: () => number,
  ) {}

  abstract call(message: Record<string, unknown>): Promise<CallHandle>;
  /** Sends a notification; over HTTP the POST's status and body come back. */
  abstract notify(message: Record<string, unknown>): Promise<PostOutcome>;
  abstract close(): Promise<void>;
  /** Why the connection cannot be used any more, if it cannot. */
  abstract get broken(): string | undefined;

  protected route(message: Record<string, unknown>, fallback: MessageStream): void {
    const received: Received = { at: this.clock(), message };
    const id = message['id'];
    if ((message['result'] !== undefined || message['error'] !== undefined) && (typeof id === 'string' || typeof id === 'number')) {
      const stream = this.calls.get(JSON.stringify(id));
      if (stream !== undefined) {
        stream.push(received);
        return;
      }
    }
    if (message['method'] === 'notifications/progress') {
      const token = (message['params'] as { progressToken?: unknown } | undefined)?.progressToken;
      const stream = this.tokens.get(JSON.stringify(token));
      if (stream !== undefined) {
        stream.push(received);
        return;
      }
    }
    fallback.push(received);
  }

  protected register(id: string | number, token: string | number | undefined): MessageStream {
    const stream = new MessageStream();
    this.calls.set(JSON.stringify(id), stream);
    if (token !== undefined) this.tokens.set(JSON.stringify(token), stream);
    return stream;
  }
}
