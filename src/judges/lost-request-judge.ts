import { fact } from '../spec/revision-facts.js';
import { idleDeadline } from './client-judges.js';
import { httpRevision, type JudgeHead, lostRequests, reissueFinder, resumes } from './http-judges.js';
import { timeoutsOf } from './judge-options.js';
import { type JudgedCase, type Judge, judged } from './judgement.js';
import { describeRequest } from './session-requests.js';

/**
 * A request whose stream the server broke before its answer is recovered, never just dropped: where the revision
 * has resumption the client resumes the stream, sends the call again under a new id, or cancels it (the request goes
 * on otherwise, for a caller that was given up on); where a broken stream loses the request (2026-07-28), the client
 * MUST send it again under a new id. Judged on each such request: a failure only once the session went on past the
 * client's own timeout for it (when one is known) and the tolerance, and not ended by the client (DELETE).
 */
export const clientRecoversLostRequest: Judge = (session, options) => {
  const head: JudgeHead = { judge: 'client-recovers-lost-request', party: 'client', rests: { fact: 'reissue-after-broken-stream' } };
  const revision = httpRevision(session, head, 'what a broken stream means is unknown');
  if (typeof revision !== 'string') return revision;
  const streams = session.transcript.streams ?? [];
  const mayResume = fact(revision, 'reissue-after-broken-stream').value === 'resume-or-new-request-id';
  const cases: JudgedCase[] = [];
  const reissueOf = reissueFinder(session);
  // Read once, not per lost request (a hostile batch loses 10⁵ at once): the resumptions, the client's last DELETE.
  const resumptions = streams.filter((one) => one.lastEventId !== undefined);
  const lastDeleteAt = streams.reduce((last, one) => (one.method === 'DELETE' ? Math.max(last, one.opened.at) : last), -Infinity);
  for (const { stream, request } of lostRequests(session, streams)) {
    const brokeAt = stream.closed?.at ?? stream.opened.at;
    const closedLine = stream.closed?.line ?? stream.opened.line;
    const again = reissueOf(request, brokeAt);
    if (again !== undefined) {
      cases.push({
        status: 'pass',
        message: `${stream.id} broke before the answer to ${describeRequest(request)}; the client sent it again as id ${JSON.stringify(again.id)}`,
        lines: [again.sent.line, closedLine],
      });
      continue;
    }
    if (mayResume) {
      const resumption = resumptions.find((one) => one.opened.at >= brokeAt && resumes(session, one, stream, request));
      if (resumption !== undefined) {
        cases.push({
          status: 'pass',
          message: `${resumption.id} resumed ${stream.id}, which broke before the answer to ${describeRequest(request)}`,
          lines: [resumption.opened.line],
        });
        continue;
      }
      const cancelled = request.cancelled;
      if (cancelled !== undefined && cancelled.at >= brokeAt) {
        cases.push({
          status: 'pass',
          message: `${stream.id} broke before the answer to ${describeRequest(request)}; the client cancelled it`,
          lines: [cancelled.line],
        });
        continue;
      }
    }
    // The client ended its session: every request of it is over.
    if (lastDeleteAt >= brokeAt) continue;
    const { idleMs } = timeoutsOf(options, request);
    const due = Math.max(brokeAt, idleMs === undefined ? brokeAt : idleDeadline(request, idleMs)) + options.toleranceMs;
    if (session.transcript.endedAt < due) continue;
    const watched = `watched ${Math.round(session.transcript.endedAt - brokeAt)} ms`;
    cases.push({
      status: 'fail',
      message: mayResume
        ? `${stream.id} broke before the answer to ${describeRequest(request)}, and the client neither resumed it (Last-Event-ID), ` +
          `nor sent it again, nor cancelled it (${watched}): on ${revision} the request goes on, for a caller that was given up on`
        : `${stream.id} broke before the answer to ${describeRequest(request)}, and the client did not send it again (${watched}): ` +
          `on ${revision} the request is lost with its stream, and the client must re-issue it under a new id`,
      lines: [closedLine, request.sent.line],
    });
  }
  return judged(
    head,
    cases,
    'no stream broke before its answer (or the session ended before the client had to act)',
    (count) => `each of ${count} request(s) lost with a broken stream was recovered`,
  );
};
