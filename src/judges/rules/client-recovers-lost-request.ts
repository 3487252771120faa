import { fact } from '../../spec/revision-facts.js';
import { defineJudge, type ObservedCase } from '../define-judge.js';
import { httpRevision, lostRequests, reissueFinder, resumes } from '../http-streams.js';
import { timeoutsOf } from '../judge-options.js';
import { describeRequest } from '../session-requests.js';
import { idleDeadline } from '../timeout-cases.js';

/** `watchedMs`: how long the session went on after the stream broke. */
const MESSAGES = {
  'sent-again': '{{stream}} broke before the answer to {{request}}; the client sent it again as id {{againId}}',
  resumed: '{{resumption}} resumed {{stream}}, which broke before the answer to {{request}}',
  cancelled: '{{stream}} broke before the answer to {{request}}; the client cancelled it',
  'dropped-resumable':
    '{{stream}} broke before the answer to {{request}}, and the client neither resumed it (Last-Event-ID), ' +
    'nor sent it again, nor cancelled it (watched {{watchedMs}} ms): on {{revision}} the request goes on, for a caller that was given up on',
  'dropped-lost':
    '{{stream}} broke before the answer to {{request}}, and the client did not send it again (watched {{watchedMs}} ms): ' +
    'on {{revision}} the request is lost with its stream, and the client must re-issue it under a new id',
} as const;

/**
 * A request whose stream the server broke before its answer is recovered, never just dropped: where the revision
 * has resumption the client resumes the stream, sends the call again under a new id, or cancels it (the request goes
 * on otherwise, for a caller that was given up on); where a broken stream loses the request (2026-07-28), the client
 * MUST send it again under a new id. Judged on each such request: a failure only once the session went on past the
 * client's own timeout for it (when one is known) and the tolerance, and not ended by the client (DELETE).
 */
export const clientRecoversLostRequest = defineJudge({
  id: 'client-recovers-lost-request',
  party: 'client',
  description:
    'A request whose stream broke before its answer is recovered: sent again under a new id, resumed where the revision allows, ' +
    'or cancelled there — never just dropped.',
  rests: { fact: 'reissue-after-broken-stream' },
  fix:
    'When a response stream ends without the answer, resume it (Last-Event-ID) where the revision allows, else send the request ' +
    'again under a new id; a request given up on is cancelled, so that the server stops its work.',
  messages: MESSAGES,
  observe(session, options, { head, judged }) {
    const revision = httpRevision(session, head, 'what a broken stream means is unknown');
    if (typeof revision !== 'string') return revision;
    const streams = session.transcript.streams ?? [];
    const mayResume = fact(revision, 'reissue-after-broken-stream').value === 'resume-or-new-request-id';
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    const reissueOf = reissueFinder(session);
    // Read once, not per lost request (a hostile batch loses 10⁵ at once): the resumptions, the client's last DELETE.
    const resumptions = streams.filter((one) => one.lastEventId !== undefined);
    const lastDeleteAt = streams.reduce((last, one) => (one.method === 'DELETE' ? Math.max(last, one.opened.at) : last), -Infinity);
    for (const { stream, request } of lostRequests(session, streams)) {
      const brokeAt = stream.closed?.at ?? stream.opened.at;
      const closedLine = stream.closed?.line ?? stream.opened.line;
      const again = reissueOf(request, brokeAt);
      const about = { stream: stream.id, request: describeRequest(request) };
      if (again !== undefined) {
        cases.push({
          status: 'pass',
          messageId: 'sent-again',
          data: { ...about, againId: JSON.stringify(again.id) },
          lines: [again.sent.line, closedLine],
        });
        continue;
      }
      if (mayResume) {
        const resumption = resumptions.find((one) => one.opened.at >= brokeAt && resumes(session, one, stream, request));
        if (resumption !== undefined) {
          cases.push({
            status: 'pass',
            messageId: 'resumed',
            data: { ...about, resumption: resumption.id },
            lines: [resumption.opened.line],
          });
          continue;
        }
        const cancelled = request.cancelled;
        if (cancelled !== undefined && cancelled.at >= brokeAt) {
          cases.push({ status: 'pass', messageId: 'cancelled', data: about, lines: [cancelled.line] });
          continue;
        }
      }
      // The client ended its session: every request of it is over.
      if (lastDeleteAt >= brokeAt) continue;
      const { idleMs } = timeoutsOf(options, request);
      const due = Math.max(brokeAt, idleMs === undefined ? brokeAt : idleDeadline(request, idleMs)) + options.toleranceMs;
      if (session.transcript.endedAt < due) continue;
      cases.push({
        status: 'fail',
        messageId: mayResume ? 'dropped-resumable' : 'dropped-lost',
        data: { ...about, watchedMs: Math.round(session.transcript.endedAt - brokeAt), revision },
        lines: [closedLine, request.sent.line],
      });
    }
    return judged(
      cases,
      'no stream broke before its answer (or the session ended before the client had to act)',
      (count) => `each of ${count} request(s) lost with a broken stream was recovered`,
    );
  },
});
