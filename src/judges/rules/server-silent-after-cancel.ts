import { defineJudge, type ObservedCase } from '../define-judge.js';
import type { JudgeOptions } from '../judge-options.js';
import { cancelledByClosing, describeRequest, type SessionIndex } from '../session-requests.js';
import { METHODS } from '../../protocol/methods.js';

/** How long after a cancellation (beyond the grace) the answer to its fencing ping may come and still fence (ms). */
export const FENCE_MS = 1000;

/**
 * Over stdio, the fence of a cancellation: when the server answered a ping the client sent right after it. stdio
 * carries each direction in order, and a server answers a ping at once, so what it wrote before that answer may have
 * been written before it read the cancellation (a slow reader, a full pipe): it crossed the cancellation, as what is
 * in flight within the grace does. Bounded both ways, so that it never hides what a server sends late on purpose:
 * the ping must follow the cancellation within the grace (a keep-alive ping later fences nothing), and its answer
 * must come within the grace and FENCE_MS of the cancellation (else the session is judged by time alone). Only a
 * ping fences: another request may take its time to be answered.
 */
function pingFences(session: SessionIndex, options: JudgeOptions): (cancelledAt: number) => number | undefined {
  if (session.transcript.transport !== 'stdio') return () => undefined;
  const pings = session.requests.filter((request) => request.from === 'client' && request.method === METHODS.ping);
  return (cancelledAt) => {
    let low = 0;
    let high = pings.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((pings[middle]?.sent.at ?? 0) < cancelledAt) low = middle + 1;
      else high = middle;
    }
    const ping = pings[low];
    if (ping === undefined || ping.sent.at > cancelledAt + options.graceMs) return undefined;
    const answeredAt = ping.response?.at;
    return answeredAt !== undefined && answeredAt <= cancelledAt + options.graceMs + FENCE_MS ? answeredAt : undefined;
  };
}

const MESSAGES = {
  'response-after-cancel': 'the server sent its response for {{request}} {{afterMs}} ms after the client cancelled it',
  'progress-after-cancel': 'the server sent progress for {{request}} {{afterMs}} ms after the client cancelled it',
  // A closed stream can carry nothing more: what the server could still do wrong is write into another one.
  'silent-after-close': 'nothing for {{request}} on any other stream after the client closed its own',
  'silent-after-cancel': 'nothing for {{request}} after its cancellation',
} as const;

/**
 * After the client cancelled a request, the server sends nothing more for it: no response, no progress. What was
 * in flight may still arrive within the grace period (both sides must handle the race), and over stdio what came
 * before the server answered the ping the client sent right after the cancellation (`pingFences`, bounded). Judged
 * on every request the client cancelled before its answer came, watched for at least the grace period after.
 */
export const serverSilentAfterCancel = defineJudge({
  id: 'server-silent-after-cancel',
  party: 'server',
  description: 'After the client cancels a request, the server sends nothing more for it: no response, no progress.',
  rests: { fact: 'receiver-stops' },
  fix: 'Stop the work when the cancellation arrives and drop its result and its progress (the SDKs give the handler an abort signal).',
  messages: MESSAGES,
  observe(session, options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const fenceAfter = pingFences(session, options);
    for (const request of session.requests) {
      const cancelled = request.cancelled;
      if (request.from !== 'client' || cancelled === undefined) continue;
      if (request.response !== undefined && request.response.at <= cancelled.at) continue;
      const after = Math.max(cancelled.at + options.graceMs, fenceAfter(cancelled.at) ?? Number.NEGATIVE_INFINITY);
      const late = [...(request.response === undefined ? [] : [request.response]), ...request.progress].filter(
        (message) => message.at > after,
      );
      late.sort((a, b) => a.at - b.at);
      const first = late[0];
      if (first !== undefined)
        cases.push({
          status: 'fail',
          messageId: first === request.response ? 'response-after-cancel' : 'progress-after-cancel',
          data: { request: describeRequest(request), afterMs: Math.round(first.at - cancelled.at) },
          lines: [first.line, cancelled.line],
        });
      else if (session.transcript.endedAt >= after)
        cases.push({
          status: 'pass',
          messageId: cancelledByClosing(cancelled) ? 'silent-after-close' : 'silent-after-cancel',
          data: { request: describeRequest(request) },
          lines: [cancelled.line],
        });
    }
    return judged(
      cases,
      'the client cancelled no request before its answer came (or the recording stopped within the grace period)',
      (count) => `the server sent nothing more for ${count} cancelled request(s)`,
    );
  },
});
