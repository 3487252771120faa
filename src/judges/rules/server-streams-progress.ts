import { defineJudge, type ObservedCase } from '../define-judge.js';
import { describeRequest } from '../session-requests.js';

/** A request shorter than this shows nothing about streaming: its progress and answer may come close together anyway (ms). */
export const STREAMING_MIN_SPAN_MS = 1000;
/** Progress that arrives within this of the answer came with it, not as the work ran (ms). */
export const HELD_BACK_MS = 100;

const MESSAGES = {
  'held-back':
    'all {{count}} progress notification(s) for {{request}} arrived within {{withinMs}} ms of its answer, after it had run {{spanMs}} ms: ' +
    'held back (a buffering layer — response logging, compression, a proxy without X-Accel-Buffering: no — or a server writing ' +
    "progress only at the end), so the client's idle timer saw nothing",
  streamed: 'progress for {{request}} arrived as it ran (the first {{firstMs}} ms after it was sent)',
} as const;

/**
 * A request's progress reaches the client as the work runs, not all at once with the answer: held back (by a
 * response logger, compression, a proxy or a CDN buffering the stream), it cannot reset the client's idle timer,
 * and the client times out a request that was alive. Judged on each request that ran for a second or more and got
 * progress before its answer, by the arrival times: every notification within HELD_BACK_MS of the answer fails.
 */
export const serverStreamsProgress = defineJudge({
  id: 'server-streams-progress',
  party: 'server',
  description: "A long request's progress reaches the client as the work runs, not all at once with its answer.",
  rests: { lesson: 'Proxy buffering', says: 'a server can stream correctly while a reverse proxy holds events in a buffer' },
  fix:
    'Flush each progress notification as it is written: no response logging, compression or buffering proxy on the stream ' +
    '(send Cache-Control: no-cache and X-Accel-Buffering: no, and turn buffering off in the proxy).',
  messages: MESSAGES,
  observe(session, _options, { judged }) {
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const request of session.requests) {
      const response = request.response;
      if (request.from !== 'client' || response === undefined) continue;
      const before = request.progress.filter((one) => one.at <= response.at);
      const first = before[0];
      const span = response.at - request.sent.at;
      if (first === undefined || span < STREAMING_MIN_SPAN_MS) continue;
      if (first.at >= response.at - HELD_BACK_MS)
        cases.push({
          status: 'fail',
          messageId: 'held-back',
          data: {
            count: before.length,
            request: describeRequest(request),
            withinMs: Math.round(response.at - first.at),
            spanMs: Math.round(span),
          },
          lines: [first.line, response.line],
        });
      else
        cases.push({
          status: 'pass',
          messageId: 'streamed',
          data: { request: describeRequest(request), firstMs: Math.round(first.at - request.sent.at) },
          lines: [first.line],
        });
    }
    return judged(
      cases,
      `no request ran ${STREAMING_MIN_SPAN_MS} ms or more with progress before its answer`,
      (count) => `progress arrived as the work ran for each of ${count} request(s)`,
    );
  },
});
