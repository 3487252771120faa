import type { Party, SessionMessage, SessionTranscript } from '../../src/judges/session-transcript.js';

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
