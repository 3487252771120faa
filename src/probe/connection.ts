import { MOST_DEPLOYED_REVISION, type SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';
import { CallInbox } from './call-inbox.js';
import { describeId, idKey, looseKey } from '../protocol/json-rpc-id.js';
import { LagMeter } from './lag-meter.js';
import { isProgress, type Received } from './received.js';
import type { ProbeRecording } from './probe-recording.js';
import type { WireLog } from './wire-log.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { isRequest, isResponse } from '../protocol/message-guards.js';
import { METHODS } from '../protocol/methods.js';

export type ProbeRevision = SpecVersion;

/** One request the probe sent: its own messages, who sent it, and how to cancel it on this transport. */
export interface Call {
  readonly id: number;
  readonly method: string;
  readonly progressToken?: string;
  /** The check that sent it: whatever the server says about it later is that check's business. */
  readonly owner: string;
  /** When the request was written (probe clock, ms): every time reported for it counts from here. */
  readonly sentAt: number;
  readonly inbox: CallInbox;
  /** Response headers (Streamable HTTP only). */
  headers?: Readonly<Record<string, string>>;
  /** The exchange that carries it in the probe's recording (Streamable HTTP only: "POST 3"). */
  exchange?: string;
  cancelledAt?: number;
  /** Closes the request's response stream (Streamable HTTP); false when there is none (stdio). */
  closeStream(): boolean;
}

/** A notification the probe sent, and any answer it got (a notification must never be answered). */
export interface SentNotification {
  readonly owner: string;
  readonly method: string;
  readonly sentAt: number;
  /** What came back, in one sentence, and when (probe clock). */
  answer?: { readonly text: string; readonly at: number };
}

/** Something the server sent that belongs to no request the probe is waiting for (repeats of it counted). */
export interface Stray {
  /** The check that was running when it arrived. */
  readonly owner: string;
  readonly text: string;
  count: number;
}

const MAX_STRAYS = 32;

/**
 * A connection to the server under probe, over stdio or Streamable HTTP. Messages are routed to the request
 * they belong to by exact id (type and value) or progress token; a response whose id matches only in another
 * type is recorded as a defect, never taken as the answer. Nothing is kept without a bound.
 */
export abstract class Connection {
  protected readonly calls = new Map<string, Call>();
  protected readonly tokens = new Map<string, Call>();
  readonly notifications: SentNotification[] = [];
  readonly strays: Stray[] = [];
  straysDropped = 0;
  /** Lines or bodies that were not JSON-RPC messages. */
  readonly garbage = { count: 0, samples: [] as string[] };
  sessionId: string | undefined;
  revision: ProbeRevision = MOST_DEPLOYED_REVISION;
  /** The check now running; what arrives unrequested is reported under it. */
  owner = 'session';
  /** Why nothing more can happen on this connection (the process exited, it flooded, …). */
  #fatal: string | undefined;
  /** The check that was running when the connection ended. */
  fatalOwner: string | undefined;
  /** How long the probe itself is held up (for the in-flight allowance). */
  readonly lag: LagMeter;
  /** The session as the judges read it (run-probe.ts judges it at the end), when it is recorded. */
  recording: ProbeRecording | undefined;

  constructor(
    readonly transport: Transport,
    protected readonly log: WireLog,
    protected readonly clock: () => number,
  ) {
    this.lag = new LagMeter(clock);
  }

  get fatal(): string | undefined {
    return this.#fatal;
  }

  /** Every request sent so far, in the order sent. */
  allCalls(): Call[] {
    return [...this.calls.values()];
  }

  /** The probe's clock, in ms since it started. */
  now(): number {
    return this.clock();
  }

  /** Sends a request and returns at once; its messages land in the call's inbox. */
  abstract send(message: Record<string, unknown>, owner: string): Promise<Call>;
  /** Sends a notification; over HTTP, what the POST got back. */
  abstract notify(message: Record<string, unknown>, owner: string): Promise<SentNotification>;
  abstract close(): Promise<void>;

  protected register(message: Record<string, unknown>, owner: string, closeStream: () => boolean): Call {
    const id = message['id'] as number;
    const token = (message['params'] as { _meta?: { progressToken?: string } } | undefined)?._meta?.progressToken;
    const sentAt = this.clock();
    const call: Call = {
      id,
      method: String(message['method']),
      ...(token === undefined ? {} : { progressToken: token }),
      owner,
      sentAt,
      inbox: new CallInbox(256, () => this.lag.total(), sentAt),
      closeStream,
    };
    this.calls.set(idKey(id), call);
    if (token !== undefined) this.tokens.set(idKey(token), call);
    if (this.#fatal !== undefined) call.inbox.close(this.#fatal);
    return call;
  }

  protected sentNotification(message: Record<string, unknown>, owner: string): SentNotification {
    const sent: SentNotification = { owner, method: String(message['method']), sentAt: this.clock() };
    this.notifications.push(sent);
    return sent;
  }

  /** Ends the connection for good: every request still open learns why. */
  protected end(reason: string): void {
    if (this.#fatal !== undefined) return;
    this.#fatal = reason;
    this.fatalOwner = this.owner;
    this.log.note(reason);
    for (const call of this.calls.values()) call.inbox.close(reason);
  }

  /** Records a message from the server, owned by the check whose request it names (none when it names no request of the probe). */
  protected recordReceived(message: Record<string, unknown>, stream?: Call): void {
    if (this.recording === undefined) return;
    // A response names a request of the probe by its id, progress by its token; the server's own requests name none.
    const about = isProgress(message)
      ? this.tokens.get(idKey((message['params'] as { progressToken?: unknown } | undefined)?.progressToken))
      : isResponse(message)
        ? this.calls.get(idKey(message['id']))
        : undefined;
    this.recording.message('server', message, about?.owner, stream?.exchange);
  }

  /** Routes one message from the server; `stream` is the request whose response stream carried it (HTTP). */
  protected route(message: Record<string, unknown>, stream?: Call): void {
    this.recordReceived(message, stream);
    const received: Received = { at: this.clock(), message, ...(stream === undefined ? {} : { stream: stream.id }) };
    if (isResponse(message) && 'id' in message) this.#response(received, stream);
    else if (isProgress(message)) {
      const token = (message['params'] as { progressToken?: unknown } | undefined)?.progressToken;
      const call = this.tokens.get(idKey(token));
      if (call === undefined) this.stray(`progress for the unknown token ${JSON.stringify(token)}`);
      else this.#deliver(call, received, stream);
    } else if (isRequest(message)) {
      const own = this.calls.get(idKey(message['id']));
      // The probe's own request coming back unanswered: the program echoes its input (cat, a shell, a pipe).
      if (own !== undefined && own.method === message['method'] && own.inbox.response === undefined)
        this.end(`the program is not an MCP server: it echoed the probe's ${own.method} request back instead of answering it`);
      else this.answerServerRequest(message);
    } else stream?.inbox.push(received);
  }

  /** A request from the server (ping, sampling, …): answered so it is not left waiting — ping with an empty result, the rest as unsupported. */
  protected abstract answerServerRequest(message: Record<string, unknown>): void;

  protected answerTo(message: Record<string, unknown>): Record<string, unknown> {
    if (message['method'] === METHODS.ping) return { jsonrpc: '2.0', id: message['id'], result: {} };
    return {
      jsonrpc: '2.0',
      id: message['id'],
      error: { code: ERROR_CODES.methodNotFound, message: `mcprely probe does not handle ${String(message['method'])}` },
    };
  }

  protected stray(text: string): void {
    const same = this.strays.find((stray) => stray.text === text && stray.owner === this.owner);
    if (same !== undefined) {
      same.count++;
      return;
    }
    if (this.strays.length >= MAX_STRAYS) {
      this.straysDropped++;
      return;
    }
    this.strays.push({ owner: this.owner, text, count: 1 });
  }

  protected notJsonRpc(text: string): void {
    this.garbage.count++;
    if (this.garbage.samples.length < 3) this.garbage.samples.push(text.length > 120 ? `${text.slice(0, 120)}…` : text);
  }

  #response(received: Received, stream: Call | undefined): void {
    const id = received.message['id'];
    if (id === null) {
      this.#answerToNotification(received);
      return;
    }
    const call = this.calls.get(idKey(id));
    if (call !== undefined) {
      this.#deliver(call, received, stream);
      return;
    }
    const loose = looseKey(id);
    const near = loose === undefined ? undefined : this.calls.get(loose);
    if (near !== undefined) {
      this.log.note(`the response id ${describeId(id)} matches request ${describeId(near.id)} in value only: not its answer`);
      near.inbox.mistyped(received, near.id);
      return;
    }
    this.stray(`a response to the unknown request id ${describeId(id)}`);
  }

  /**
   * An error with a null id answers a message the server could not attribute. The only notifications the
   * probe sends that a server might answer are its cancellations, so it goes to the oldest cancellation not
   * yet answered: servers answer in order, so each answer finds the cancellation that caused it, whichever
   * check is running when it arrives.
   */
  #answerToNotification(received: Received): void {
    const text = `an error response with id null: ${JSON.stringify(received.message['error'] ?? received.message['result'])}`;
    const pending = this.notifications.find((sent) => sent.answer === undefined && sent.method === METHODS.cancelled);
    if (pending === undefined) this.stray(text);
    else pending.answer = { text, at: received.at };
  }

  #deliver(call: Call, received: Received, stream: Call | undefined): void {
    if (stream !== undefined && stream !== call) {
      this.log.note(`a message for request ${call.id} arrived on the response stream of request ${stream.id}`);
      call.inbox.crossedStreams(received);
      return;
    }
    call.inbox.push(received);
  }
}
