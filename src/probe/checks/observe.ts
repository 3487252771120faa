import type { CallHandle } from '../connection.js';
import type { Received } from '../message-stream.js';
import type { ProbeContext } from '../probe-types.js';

/** Everything that arrives for a call within `ms` (bounded by the stream's own limit). */
export async function observe(handle: CallHandle, ms: number): Promise<Received[]> {
  const until = Date.now() + ms;
  const seen: Received[] = [];
  for (let left = ms; left > 0; left = until - Date.now()) {
    const next = await handle.messages.next(() => true, left);
    if (next === undefined) break;
    seen.push(next);
  }
  return seen;
}

export const isResponse = (message: Record<string, unknown>) => message['result'] !== undefined || message['error'] !== undefined;
export const isProgress = (message: Record<string, unknown>) => message['method'] === 'notifications/progress';

/** The server still answers an ordinary request: it survived whatever the check did. */
export async function healthy(context: ProbeContext): Promise<string | undefined> {
  const answer = await context.session.request('tools/list', {}, context.plan.requestTimeoutMs);
  const garbage = context.session.connection.other.garbage;
  const wrote =
    garbage.count > 0 ? `; it wrote ${garbage.count} line(s) that are not JSON-RPC, e.g. ${JSON.stringify(garbage.samples[0])}` : '';
  if (answer === undefined) {
    const broken = context.session.connection.broken;
    return `the server no longer answers tools/list within ${context.plan.requestTimeoutMs} ms${broken ? ` (${broken})` : ''}${wrote}`;
  }
  if (answer.message['error'] !== undefined) return `tools/list now fails: ${JSON.stringify(answer.message['error'])}`;
  return undefined;
}

export function describeMessage(received: Received): string {
  const message = received.message;
  if (isProgress(message))
    return `progress ${JSON.stringify((message['params'] as { progress?: unknown })?.progress)} at ${Math.round(received.at)} ms`;
  if (message['error'] !== undefined) return `an error response at ${Math.round(received.at)} ms`;
  if (message['result'] !== undefined) return `a response at ${Math.round(received.at)} ms`;
  return `${String(message['method'] ?? 'a message')} at ${Math.round(received.at)} ms`;
}
