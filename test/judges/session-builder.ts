import type { Party, SessionMessage, SessionTranscript } from '../../src/judges/session-transcript.js';
import { readTrace } from '../../src/judges/trace-format.js';

/** A transcript from timed messages: `[at, from, message]`, lines numbered from 2 (line 1 is a trace's header). */
export function transcript(
  entries: readonly (readonly [number, Party, unknown])[],
  extra: Partial<Pick<SessionTranscript, 'transport' | 'revision' | 'endedAt'>> = {},
): SessionTranscript {
  const messages: SessionMessage[] = entries.map(([at, from, message], index) => ({ line: index + 2, at, from, message }));
  return { transport: 'stdio', messages, endedAt: entries.at(-1)?.[0] ?? 0, ...extra };
}

export const request = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
export const call = (id: number, name: string, args: Record<string, unknown> = {}, token?: number) =>
  request(id, 'tools/call', { name, arguments: args, ...(token === undefined ? {} : { _meta: { progressToken: token } }) });
export const result = (id: number | string | null, value: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, result: value });
export const cancel = (requestId: number | string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
export const progress = (token: number | string, value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});

/** An HTTP session as the relay records it: trace records after a header, read back as a transcript. */
export function http(records: readonly object[], endedAt = 5000): SessionTranscript {
  const lines = [{ mcprelyTrace: 1, transport: 'http', started: '2026-12-03T00:00:00.000Z' }, ...records, { at: endedAt, end: 'stopped' }];
  const read = readTrace(lines.map((line) => JSON.stringify(line)).join('\n'));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.transcript;
}
export const opens = (at: number, stream: string, headers: { protocolVersion?: string; lastEventId?: string } = {}) => ({
  at,
  from: 'client',
  stream,
  request: { method: stream.split(' ')[0], ...headers },
});
export const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };
export const answers = (at: number, stream: string, headers: Record<string, string> = SSE, status = 200) => ({
  at,
  from: 'server',
  stream,
  response: { status, headers },
});
export const closes = (at: number, stream: string, by: Party = 'server') => ({ at, from: by, stream, closed: true });
export const says = (at: number, from: Party, stream: string, message: unknown) => ({ at, from, stream, message });

/** The 2025-11-25 handshake over HTTP: initialize on POST 1, answered as JSON. */
export const HANDSHAKE_2025 = [
  opens(0, 'POST 1'),
  says(1, 'client', 'POST 1', request(0, 'initialize', { protocolVersion: '2025-11-25' })),
  answers(2, 'POST 1', { 'content-type': 'application/json' }),
  says(3, 'server', 'POST 1', result(0, { protocolVersion: '2025-11-25' })),
  closes(3, 'POST 1'),
];
