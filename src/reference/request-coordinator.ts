import { InvalidArgumentError, ProtocolStateError } from './errors.js';
import { factsOf, type RevisionFacts } from '../spec/revision-facts.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import { TRANSPORTS, type Transport } from '../protocol/transports.js';
import type { JsonRpcNotification, JsonRpcResponse } from './json-rpc.js';
import {
  requireJson,
  requireNonEmptyString,
  requireOneOf,
  requirePositiveTime,
  requireRequestId,
  requireTime,
  type RequestId,
} from './validate-arguments.js';
import { METHODS } from '../protocol/methods.js';

export type RequestState = 'in_progress' | 'completed' | 'cancelled';

/**
 * How the client puts a cancellation on the wire: a notifications/cancelled message (stdio, and Streamable
 * HTTP where the revision has it POSTed), or closing the request's response stream (Streamable HTTP where the
 * revision makes that the cancellation), which carries no JSON-RPC message at all.
 */
export type CancellationSignal =
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'close-stream'; readonly requestId: RequestId };

/** What the receiver did with a cancellation. It never answers one with a JSON-RPC message. */
export type CancellationOutcome = { readonly accepted: true } | { readonly accepted: false; readonly ignoredBecause: string };

export interface CompletionOutcome {
  /** The response to send; absent when the request was cancelled first (suppressed). */
  readonly response?: JsonRpcResponse;
  readonly suppressed: boolean;
  /** A second completion: the stored response again, whatever the new result was. */
  readonly repeated: boolean;
}

export interface TimeoutSignal {
  readonly reason: 'maximum timeout' | 'idle timeout';
  readonly signal: CancellationSignal;
}

export interface StartOptions {
  readonly operation: string;
  readonly transport: Transport;
  readonly startedAtMs: number;
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly progressToken?: RequestId;
  /** The JSON-RPC method (default tools/call); subscriptions/listen may be ended by the server on stdio. */
  readonly method?: string;
}

export interface RequestRecord {
  readonly id: RequestId;
  readonly operation: string;
  readonly method: string;
  readonly transport: Transport;
  readonly state: RequestState;
  readonly startedAtMs: number;
  readonly lastActivityMs: number;
  readonly idleTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly progressToken?: RequestId;
  readonly lastProgress?: number;
  readonly cancelReason?: string;
}

interface MutableRecord {
  id: RequestId;
  operation: string;
  method: string;
  transport: Transport;
  state: RequestState;
  startedAtMs: number;
  lastActivityMs: number;
  idleTimeoutMs: number;
  maxTimeoutMs: number;
  progressToken?: RequestId;
  lastProgress?: number;
  cancelReason?: string;
  responseJson?: string;
}

/**
 * One record per in-flight request on a logical clock (times are passed in; nothing sleeps). Each request
 * reaches exactly one terminal state: whichever of cancellation and completion comes first wins and the
 * other is ignored. Behaviour that differs between revisions follows `specVersion`.
 */
export class RequestCoordinator {
  readonly specVersion: SpecVersion;
  readonly #facts: RevisionFacts;
  readonly #records = new Map<RequestId, MutableRecord>();

  constructor(options: { specVersion: SpecVersion }) {
    this.specVersion = requireOneOf('specVersion', options?.specVersion, SPEC_VERSIONS);
    this.#facts = factsOf(this.specVersion);
  }

  start(id: RequestId, options: StartOptions): RequestRecord {
    requireRequestId('id', id);
    if (this.#records.has(id)) throw new ProtocolStateError(`request ${JSON.stringify(id)} is already tracked; ids must be unique`);
    const operation = requireNonEmptyString('operation', options?.operation);
    const transport = requireOneOf('transport', options.transport, TRANSPORTS);
    const startedAtMs = requireTime('startedAtMs', options.startedAtMs);
    const idleTimeoutMs = requirePositiveTime('idleTimeoutMs', options.idleTimeoutMs);
    const maxTimeoutMs = requireTime('maxTimeoutMs', options.maxTimeoutMs);
    if (maxTimeoutMs < idleTimeoutMs)
      throw new InvalidArgumentError('maxTimeoutMs', `must be at least idleTimeoutMs (${idleTimeoutMs}), not ${maxTimeoutMs}`);
    const record: MutableRecord = {
      id,
      operation,
      method: options.method === undefined ? METHODS.toolsCall : requireNonEmptyString('method', options.method),
      transport,
      state: 'in_progress',
      startedAtMs,
      lastActivityMs: startedAtMs,
      idleTimeoutMs,
      maxTimeoutMs,
    };
    if (options.progressToken !== undefined) record.progressToken = requireRequestId('progressToken', options.progressToken);
    this.#records.set(id, record);
    return snapshot(record);
  }

  /** A progress notification, recording activity; nothing when the request is over or has no token. Progress must increase. */
  progress(id: RequestId, value: number, options: { nowMs: number; total?: number; message?: string }): JsonRpcNotification | undefined {
    const record = this.#record(id);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new InvalidArgumentError('value', `must be a finite number, not ${String(value)}`);
    const nowMs = this.#time(record, 'nowMs', options?.nowMs);
    if (options.total !== undefined && (typeof options.total !== 'number' || !Number.isFinite(options.total)))
      throw new InvalidArgumentError('total', `must be a finite number, not ${String(options.total)}`);
    if (record.state !== 'in_progress' || record.progressToken === undefined) return undefined;
    if (record.lastProgress !== undefined && value <= record.lastProgress)
      throw new ProtocolStateError(`progress must increase: ${value} is not greater than ${record.lastProgress}`);
    record.lastProgress = value;
    record.lastActivityMs = nowMs;
    const params: Record<string, unknown> = { progressToken: record.progressToken, progress: value };
    if (options.total !== undefined) params['total'] = options.total;
    if (options.message !== undefined) params['message'] = String(options.message);
    return { jsonrpc: '2.0', method: METHODS.progress, params };
  }

  /** An SSE keep-alive comment: transport traffic, never activity, so it leaves the idle clock alone. */
  keepAlive(id: RequestId, options: { nowMs: number }): string {
    const record = this.#record(id);
    this.#time(record, 'nowMs', options?.nowMs);
    return ':\r\n';
  }

  /** The client's cancellation signal when a deadline is due: the maximum (wins) or the idle timeout. */
  timeoutSignal(id: RequestId, options: { nowMs: number }): TimeoutSignal | undefined {
    const record = this.#record(id);
    const nowMs = this.#time(record, 'nowMs', options?.nowMs);
    if (record.state !== 'in_progress') return undefined;
    if (nowMs - record.startedAtMs >= record.maxTimeoutMs)
      return { reason: 'maximum timeout', signal: this.clientCancelSignal(id, 'maximum timeout') };
    if (nowMs - record.lastActivityMs >= record.idleTimeoutMs)
      return { reason: 'idle timeout', signal: this.clientCancelSignal(id, 'idle timeout') };
    return undefined;
  }

  /** What the client puts on the wire to cancel: per transport and revision. */
  clientCancelSignal(id: RequestId, reason: string): CancellationSignal {
    const record = this.#record(id);
    if (record.transport === 'streamable-http' && this.#facts['http-cancel-signal'].value === 'close-stream')
      return { kind: 'close-stream', requestId: record.id };
    return {
      kind: 'notification',
      message: { jsonrpc: '2.0', method: METHODS.cancelled, params: { requestId: record.id, reason: String(reason) } },
    };
  }

  /** A notifications/cancelled read from stdio. Malformed, unknown, finished and non-stdio cancellations are ignored. */
  receiveStdioCancellation(notification: unknown): CancellationOutcome {
    return this.#receiveNotification(notification, 'stdio');
  }

  /** A notifications/cancelled POSTed over Streamable HTTP: the signal where the revision has it POSTed; not expected where closing the stream cancels. */
  receiveHttpCancellation(notification: unknown): CancellationOutcome {
    if (this.#facts['http-cancel-signal'].value === 'close-stream')
      return {
        accepted: false,
        ignoredBecause: `on ${this.specVersion} an HTTP request is cancelled by closing its response stream, not by a notification`,
      };
    return this.#receiveNotification(notification, 'streamable-http');
  }

  /** The client closed a request's response stream: the cancellation where the revision says a disconnect is one; otherwise ignored. */
  closeHttpStream(id: RequestId, reason = 'response stream closed'): CancellationOutcome {
    const record = this.#record(id);
    if (record.transport !== 'streamable-http') return { accepted: false, ignoredBecause: 'a stdio request has no response stream' };
    if (!this.#facts['disconnect-is-cancellation'].value)
      return { accepted: false, ignoredBecause: `on ${this.specVersion} a disconnect is not a cancellation` };
    return this.#cancel(record, reason);
  }

  /** The result of the work: a response, unless the request was cancelled first; a second completion repeats the first. */
  complete(id: RequestId, result: unknown): CompletionOutcome {
    const record = this.#record(id);
    requireJson('result', result);
    if (record.state === 'cancelled') return { suppressed: true, repeated: false };
    if (record.state === 'completed')
      return { response: JSON.parse(record.responseJson!) as JsonRpcResponse, suppressed: false, repeated: true };
    record.state = 'completed';
    record.responseJson = JSON.stringify({ jsonrpc: '2.0', id: record.id, result });
    return { response: JSON.parse(record.responseJson) as JsonRpcResponse, suppressed: false, repeated: false };
  }

  /** The server ends a stdio subscriptions/listen stream: the only notifications/cancelled a server may send where listen streams exist. */
  serverCancelSubscription(id: RequestId, reason = 'subscription ended by the server'): JsonRpcNotification {
    const record = this.#record(id);
    if (!this.#facts['subscriptions-listen'].value) throw new ProtocolStateError(`${this.specVersion} has no subscriptions/listen`);
    if (record.method !== 'subscriptions/listen')
      throw new ProtocolStateError(`a server sends notifications/cancelled only for subscriptions/listen, not ${record.method}`);
    if (record.transport !== 'stdio')
      throw new ProtocolStateError('on Streamable HTTP the server ends a subscription by closing its stream');
    if (record.state !== 'in_progress') throw new ProtocolStateError(`subscription ${JSON.stringify(id)} is already ${record.state}`);
    record.state = 'cancelled';
    record.cancelReason = reason;
    return { jsonrpc: '2.0', method: METHODS.cancelled, params: { requestId: record.id, reason } };
  }

  get(id: RequestId): RequestRecord | undefined {
    const record = this.#records.get(requireRequestId('id', id));
    return record === undefined ? undefined : snapshot(record);
  }

  #receiveNotification(notification: unknown, transport: Transport): CancellationOutcome {
    if (notification === null || typeof notification !== 'object') return ignored('not a JSON-RPC message');
    const message = notification as { method?: unknown; params?: unknown };
    if (message.method !== METHODS.cancelled) return ignored(`method is ${JSON.stringify(message.method)}, not notifications/cancelled`);
    if (message.params === null || typeof message.params !== 'object' || Array.isArray(message.params))
      return ignored('params missing or not an object');
    const params = message.params as { requestId?: unknown; reason?: unknown };
    const requestId = params.requestId;
    if (!(typeof requestId === 'string' || (typeof requestId === 'number' && Number.isSafeInteger(requestId))))
      return ignored('requestId is not a string or an integer');
    const record = this.#records.get(requestId);
    if (record === undefined) return ignored(`unknown request ${JSON.stringify(requestId)}`);
    if (record.transport !== transport) return ignored(`request ${JSON.stringify(requestId)} is not a ${transport} request`);
    if (record.state !== 'in_progress') return ignored(`request ${JSON.stringify(requestId)} is already ${record.state}`);
    return this.#cancel(record, typeof params.reason === 'string' ? params.reason : undefined);
  }

  #cancel(record: MutableRecord, reason: string | undefined): CancellationOutcome {
    if (record.state !== 'in_progress') return ignored(`request ${JSON.stringify(record.id)} is already ${record.state}`);
    record.state = 'cancelled';
    if (reason !== undefined) record.cancelReason = reason;
    return { accepted: true };
  }

  #record(id: RequestId): MutableRecord {
    const record = this.#records.get(requireRequestId('id', id));
    if (record === undefined) throw new ProtocolStateError(`no request ${JSON.stringify(id)} was started`);
    return record;
  }

  /** Times on the logical clock never precede the request's start. */
  #time(record: MutableRecord, argument: string, value: unknown): number {
    const time = requireTime(argument, value);
    if (time < record.startedAtMs)
      throw new InvalidArgumentError(argument, `must not be before the request started (${record.startedAtMs}), not ${time}`);
    return time;
  }
}

function ignored(because: string): CancellationOutcome {
  return { accepted: false, ignoredBecause: because };
}

function snapshot(record: MutableRecord): RequestRecord {
  const { responseJson: _response, ...rest } = record;
  return { ...rest };
}
