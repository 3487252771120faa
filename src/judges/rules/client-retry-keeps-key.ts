import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest, type SessionIndex, type SessionRequest } from '../session-requests.js';
import { METHODS } from '../../protocol/methods.js';

/** Argument names that carry an idempotency key when neither the manifest nor an option names one. */
const KEY_NAME = /^idempotency[-_]?key$|^request[-_]?key$|^dedup(e|lication)?[-_]?key$/i;

function argumentsOf(request: SessionRequest): Readonly<Record<string, unknown>> {
  const value = request.params['arguments'];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** JSON with sorted keys: two argument sets are the same call when these agree. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The index of the first of `sorted` (ascending) greater than `value`. */
function firstAfter(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Tools the server said only read (tools/list's `readOnlyHint: true`): re-sending them is harmless. */
function readOnlyTools(session: SessionIndex): ReadonlySet<string> {
  const names = new Set<string>();
  for (const request of session.requests) {
    if (request.method !== METHODS.toolsList) continue;
    const tools = (request.response?.message as { result?: { tools?: unknown } } | undefined)?.result?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) if (tool?.annotations?.readOnlyHint === true && typeof tool.name === 'string') names.add(tool.name);
  }
  return names;
}

const MESSAGES = {
  'same-request-id': '{{retry}} re-sends {{first}} with the same request id',
  'no-key': '{{retry}} re-sends {{first}} without an idempotency key',
  'new-key': '{{retry}} re-sends {{first}} with a new idempotency key ({{keyName}} {{firstKey}} → {{retryKey}})',
  'key-kept': '{{retry}} re-sends {{first}} with its key and a new id',
} as const;

/**
 * A tool call the client gave up on (cancelled, or still unanswered when it sent the call again) that it sends
 * again — same tool, same arguments but the key — carries the same idempotency key and a new request id: a new key
 * makes the server do the work twice, and a reused id is a new request the server cannot tell apart. Tools the
 * server lists as read-only are left out. Rests on the reliability lesson (retries of a mutation reuse its key) and
 * on the rule that ids are never reused.
 */
export const clientRetryKeepsKey = defineJudge({
  id: 'client-retry-keeps-key',
  party: 'client',
  description: 'A tool call the client gave up on and sends again carries the same idempotency key and a new request id.',
  rests: {
    lesson: 'Idempotency keys',
    says: 'an idempotency key identifies the business intent: a retry with the same key and arguments returns the first result instead of running again',
  },
  fix: 'Make the key once per intent, before the first attempt, and send it with every retry under a new request id.',
  messages: MESSAGES,
  observe(session, options, { judged }) {
    // The key argument its operation names in the manifest, else the one given, else a name like idempotencyKey.
    const keyNameOf = (request: SessionRequest) => {
      const field = options.claimsFor?.(request)?.idempotencyKeyField ?? options.idempotencyKeyField;
      return (name: string) => (field === undefined ? KEY_NAME.test(name) : name === field);
    };
    const readOnly = readOnlyTools(session);
    const calls = session.requests.filter((request) => request.from === 'client' && request.method === METHODS.toolsCall);
    // The calls of each tool by their arguments but the key (the retry is the same tool's call, so the same operation:
    // one key argument for both), each list in the order sent: a retry is looked for among its own, not among every later
    // call (a long session holds 10⁴ calls and more, judged live about once a second).
    const groupOf = new Map<SessionRequest, number[]>();
    const groups = new Map<string, number[]>();
    for (const [position, call] of calls.entries()) {
      const name = call.params['name'];
      if (typeof name !== 'string') continue;
      const keyName = keyNameOf(call);
      const rest = canonical(Object.fromEntries(Object.entries(argumentsOf(call)).filter(([key]) => !keyName(key))));
      const signature = `${name}\u0000${rest}`;
      const group = groups.get(signature) ?? [];
      if (group.length === 0) groups.set(signature, group);
      group.push(position);
      groupOf.set(call, group);
    }
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const judgedRetries = new Set<SessionRequest>();
    for (const [position, first] of calls.entries()) {
      const name = first.params['name'];
      if (typeof name !== 'string' || readOnly.has(name)) continue;
      const gaveUpAt = first.cancelled?.at;
      const firstArguments = argumentsOf(first);
      const keyName = keyNameOf(first);
      const same = groupOf.get(first) ?? [];
      let retry: SessionRequest | undefined;
      for (let index = firstAfter(same, position); index < same.length && retry === undefined; index++) {
        const later = calls[same[index] as number] as SessionRequest;
        if (gaveUpAt === undefined && first.response !== undefined && later.sent.at >= first.response.at) break;
        if (judgedRetries.has(later) || (gaveUpAt !== undefined && later.sent.at < gaveUpAt)) continue;
        retry = later;
      }
      if (retry === undefined) continue;
      judgedRetries.add(retry);
      const keyOf = (args: Readonly<Record<string, unknown>>) => Object.entries(args).find(([key]) => keyName(key));
      const [firstKey, retryKey] = [keyOf(firstArguments), keyOf(argumentsOf(retry))];
      const lines = [retry.sent.line, first.sent.line];
      const call = { retry: describeRequest(retry), first: describeRequest(first) };
      if (retry.key === first.key) cases.push({ status: 'fail', messageId: 'same-request-id', data: call, lines });
      else if (firstKey === undefined || retryKey === undefined) cases.push({ status: 'fail', messageId: 'no-key', data: call, lines });
      else if (canonical(firstKey[1]) !== canonical(retryKey[1]))
        cases.push({
          status: 'fail',
          messageId: 'new-key',
          data: { ...call, keyName: firstKey[0], firstKey: canonical(firstKey[1]), retryKey: canonical(retryKey[1]) },
          lines,
        });
      else cases.push({ status: 'pass', messageId: 'key-kept', data: call, lines });
    }
    return judged(
      cases,
      'the client re-sent no tool call it had given up on',
      (count) => `${count} re-sent tool call(s), each with its key and a new id`,
    );
  },
});
