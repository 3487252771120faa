import type { Party, SessionStream, StreamMoment } from './session-transcript.js';
import { SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';
import { isRecord } from '../protocol/message-guards.js';

/**
 * What a trace records of a Streamable HTTP exchange besides its messages: the request opening it (method and the
 * two headers the judges read), the response's status and headers, and its end. Never a credential, a cookie or the
 * session id: only the headers named here are kept.
 */
export type StreamRecord =
  | { readonly request: { readonly method: string; readonly protocolVersion?: string; readonly lastEventId?: string } }
  | { readonly response: { readonly status: number; readonly headers: Readonly<Record<string, string>> } }
  | { readonly closed: true };

/** The response headers a trace keeps: the ones the SSE judge reads, none that can carry a secret. */
export const RECORDED_RESPONSE_HEADERS: readonly string[] = Object.keys(SSE_RESPONSE_HEADERS).map((name) => name.toLowerCase());

/** A response's record: its status and the recorded headers that it has (`header` reads one by its lower-case name). */
export function responseRecord(status: number, header: (name: string) => string | undefined): StreamRecord {
  const headers: Record<string, string> = {};
  for (const name of RECORDED_RESPONSE_HEADERS) {
    const value = header(name);
    if (value !== undefined) headers[name] = value;
  }
  return { response: { status, headers } };
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/** A trace line's stream record, its problem in words, or undefined when the line is not one. */
export function streamRecordOf(value: Record<string, unknown>): StreamRecord | string | undefined {
  if ('request' in value) {
    const request = value['request'];
    if (
      !isRecord(request) ||
      typeof request['method'] !== 'string' ||
      !optionalString(request['protocolVersion']) ||
      !optionalString(request['lastEventId'])
    )
      return '"request" must be {"method": string, "protocolVersion"?: string, "lastEventId"?: string}';
    return { request: request as { method: string } };
  }
  if ('response' in value) {
    const response = value['response'];
    const headers = isRecord(response) ? response['headers'] : undefined;
    if (
      !isRecord(response) ||
      !Number.isInteger(response['status']) ||
      !isRecord(headers) ||
      !Object.values(headers).every((header) => typeof header === 'string')
    )
      return '"response" must be {"status": integer, "headers": {name: string}}';
    return { response: response as { status: number; headers: Record<string, string> } };
  }
  if ('closed' in value) return value['closed'] === true ? { closed: true } : '"closed" must be true';
  return undefined;
}

/** The exchanges of a session built record by record, each record checked against what came before. */
export class StreamBook {
  readonly streams: SessionStream[] = [];
  readonly #byId = new Map<string, SessionStream>();

  /** Adds one record; what is wrong with it, in words, when it does not follow from the records before. */
  add(id: string, from: Party, record: StreamRecord, moment: StreamMoment): string | undefined {
    const stream = this.#byId.get(id);
    if ('request' in record) {
      if (from !== 'client') return 'a stream is opened by the client ("from": "client")';
      if (stream !== undefined) return `stream ${JSON.stringify(id)} was opened before, on line ${stream.opened.line}`;
      const { method, protocolVersion, lastEventId } = record.request;
      const opened: SessionStream = {
        id,
        method,
        opened: { line: moment.line, at: moment.at },
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
        ...(lastEventId === undefined ? {} : { lastEventId }),
      };
      this.streams.push(opened);
      this.#byId.set(id, opened);
      return undefined;
    }
    if (stream === undefined) return `stream ${JSON.stringify(id)} has no "request" record before this one`;
    if ('response' in record) {
      if (from !== 'server') return 'a response is the server\'s ("from": "server")';
      if (stream.response !== undefined) return `stream ${JSON.stringify(id)} has a response already, on line ${stream.response.line}`;
      stream.response = { line: moment.line, at: moment.at, status: record.response.status, headers: { ...record.response.headers } };
      return undefined;
    }
    if (stream.closed !== undefined) return `stream ${JSON.stringify(id)} was closed already, on line ${stream.closed.line}`;
    stream.closed = { line: moment.line, at: moment.at, by: from };
    return undefined;
  }
}
