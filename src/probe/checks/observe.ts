import type { Call } from '../connection.js';
import { type ProbeContext, since } from '../probe-types.js';
import { isProgress, progressValue, type Received } from '../received.js';
import { METHODS } from '../../protocol/methods.js';

/** Waits `ms`, or less if the connection ends for good; returns how long it actually waited. */
export async function pause(context: ProbeContext, ms: number): Promise<number> {
  const started = Date.now();
  const connection = context.session.connection;
  for (let left = ms; left > 0 && connection.fatal === undefined; left = ms - (Date.now() - started)) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 50)));
  }
  return Date.now() - started;
}

/** The server still answers an ordinary request: it survived whatever the check did. */
export async function healthy(context: ProbeContext): Promise<string | undefined> {
  const call = await context.session.request(METHODS.toolsList, {}, context.plan.requestTimeoutMs, context.owner);
  const answer = call.inbox.response?.message;
  if (answer === undefined) return `the server no longer answers tools/list: ${unanswered(call, context.plan.requestTimeoutMs)}`;
  if (answer['error'] !== undefined) return `tools/list now fails: ${JSON.stringify(answer['error'])}`;
  return undefined;
}

/** Why a request got no answer: the transport's reason when there is one, else the time waited. */
export function unanswered(call: Call, waitedMs: number): string {
  return call.inbox.why ?? `no response within ${waitedMs} ms`;
}

/** A message in words, its time counted from the request it belongs to. */
export function describeMessage(call: Pick<Call, 'id' | 'sentAt'>, received: Received): string {
  const message = received.message;
  const at = `${since(call, received)} ms after request ${call.id}`;
  if (isProgress(message)) return `progress ${JSON.stringify(progressValue(message))} ${at}`;
  if (message['error'] !== undefined) return `an error response ${at}`;
  if (message['result'] !== undefined) return `a response ${at}`;
  return `${String(message['method'] ?? 'a message')} ${at}`;
}

/** The tool result is a failure the tool reported (a JSON-RPC error, or a result with isError). */
export function toolFailed(message: Record<string, unknown>): string | undefined {
  if (message['error'] !== undefined) return `an error: ${JSON.stringify(message['error'])}`;
  const result = message['result'] as { isError?: unknown; content?: unknown } | undefined;
  if (result?.isError === true) return `a tool error: ${JSON.stringify(result.content ?? result).slice(0, 200)}`;
  return undefined;
}

/**
 * How many units of work the server says are running, asked through the status tool the manifest names
 * (probe.workStatus); or why it could not be read.
 */
export async function workRunning(context: ProbeContext): Promise<{ active: number } | { unreadable: string }> {
  const status = context.plan.workStatus;
  if (status === undefined) return { unreadable: 'no status tool is named (probe.workStatus)' };
  const call = await context.session.request(
    METHODS.toolsCall,
    { name: status.tool, arguments: { ...(status.arguments ?? {}) } },
    context.plan.requestTimeoutMs,
    context.owner,
  );
  const answer = call.inbox.response?.message;
  if (answer === undefined) return { unreadable: `${status.tool} was not answered: ${unanswered(call, context.plan.requestTimeoutMs)}` };
  const failed = toolFailed(answer);
  if (failed !== undefined) return { unreadable: `${status.tool} answered with ${failed}` };
  const result = answer['result'] as { structuredContent?: unknown; content?: unknown } | undefined;
  const texts = Array.isArray(result?.content) ? result.content.map((part) => (part as { text?: unknown })?.text) : [];
  for (const source of [result?.structuredContent, ...texts.map(parseJson)]) {
    const value = status.field
      .split('.')
      .reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), source);
    if (typeof value === 'number' && Number.isFinite(value)) return { active: value };
    if (typeof value === 'boolean') return { active: value ? 1 : 0 };
  }
  return { unreadable: `${status.tool}'s result has no number at ${status.field} (in structuredContent or the JSON of its text)` };
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
