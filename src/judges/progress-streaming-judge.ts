import { type JudgedCase, type Judge, judged } from './judgement.js';
import { describeRequest } from './session-requests.js';

/** A request shorter than this shows nothing about streaming: its progress and answer may come close together anyway (ms). */
export const STREAMING_MIN_SPAN_MS = 1000;
/** Progress that arrives within this of the answer came with it, not as the work ran (ms). */
export const HELD_BACK_MS = 100;

/**
 * A request's progress reaches the client as the work runs, not all at once with the answer: held back (by a
 * response logger, compression, a proxy or a CDN buffering the stream), it cannot reset the client's idle timer,
 * and the client times out a request that was alive. Judged on each request that ran for a second or more and got
 * progress before its answer, by the arrival times: every notification within HELD_BACK_MS of the answer fails.
 */
export const serverStreamsProgress: Judge = (session) => {
  const cases: JudgedCase[] = [];
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
        message:
          `all ${before.length} progress notification(s) for ${describeRequest(request)} arrived within ${Math.round(response.at - first.at)} ms ` +
          `of its answer, after it had run ${Math.round(span)} ms: held back (a buffering layer — response logging, compression, a proxy ` +
          "without X-Accel-Buffering: no — or a server writing progress only at the end), so the client's idle timer saw nothing",
        lines: [first.line, response.line],
      });
    else
      cases.push({
        status: 'pass',
        message: `progress for ${describeRequest(request)} arrived as it ran (the first ${Math.round(first.at - request.sent.at)} ms after it was sent)`,
        lines: [first.line],
      });
  }
  return judged(
    {
      judge: 'server-streams-progress',
      party: 'server',
      rests: {
        lesson: 'Proxy buffering',
        says: 'a server can stream correctly while a reverse proxy holds events in a buffer',
      },
    },
    cases,
    `no request ran ${STREAMING_MIN_SPAN_MS} ms or more with progress before its answer`,
    (count) => `progress arrived as the work ran for each of ${count} request(s)`,
  );
};
