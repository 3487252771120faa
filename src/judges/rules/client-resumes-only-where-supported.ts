import { fact } from '../../spec/revision-facts.js';
import { defineJudge, NEWEST_REVISION, type ObservedCase } from '../define-judge.js';
import { httpRevision, lostRequests, reissueFinder } from '../http-streams.js';
import { describeRequest } from '../session-requests.js';

const MESSAGES = {
  resumed: '{{stream}} resumed after event {{lastEventId}}, as {{revision}} allows',
  'resumed-unsupported':
    '{{stream}} sent Last-Event-ID {{lastEventId}}, but {{revision}} has no resumption: send the request again under a new id',
  'sent-again': '{{stream}} broke before the answer to {{request}}; the client sent it again as id {{againId}}, without Last-Event-ID',
} as const;

/**
 * The client resumes a stream with `Last-Event-ID` only where the revision supports it: 2026-07-28 has no
 * resumption, and a broken stream's request must be sent again under a new id. Judged on each request that
 * carried the header, and — on a revision without resumption — on each stream that broke before its answer and was
 * sent again under a new id, without the header (what the client does instead, client-recovers-lost-request judges).
 */
export const clientResumesOnlyWhereSupported = defineJudge({
  id: 'client-resumes-only-where-supported',
  party: 'client',
  description: 'The client resumes a stream with Last-Event-ID only on a revision that supports resumption.',
  rests: { fact: 'last-event-id-resumption' },
  severity: 'error',
  cites: NEWEST_REVISION,
  fix:
    "Where the revision has no resumption, send a broken stream's request again under a new request id instead of resuming " +
    'with Last-Event-ID.',
  messages: MESSAGES,
  observe(session, _options, { head, judged }) {
    const revision = httpRevision(session, head, 'whether it allows resumption is unknown');
    if (typeof revision !== 'string') return revision;
    const streams = session.transcript.streams ?? [];
    const supported = fact(revision, 'last-event-id-resumption').value === true;
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const stream of streams) {
      if (stream.lastEventId === undefined) continue;
      cases.push({
        status: supported ? 'pass' : 'fail',
        messageId: supported ? 'resumed' : 'resumed-unsupported',
        data: { stream: stream.id, lastEventId: stream.lastEventId, revision },
        lines: [stream.opened.line],
      });
    }
    if (!supported) {
      const reissueOf = reissueFinder(session);
      const byId = new Map(streams.map((one) => [one.id, one]));
      for (const { stream, request } of lostRequests(session, streams)) {
        // Passed only where the client did what the revision asks instead: the same call again under a new id.
        const again = reissueOf(request, stream.closed?.at ?? 0);
        if (again !== undefined && again.sent.stream !== undefined && byId.get(again.sent.stream)?.lastEventId === undefined)
          cases.push({
            status: 'pass',
            messageId: 'sent-again',
            data: { stream: stream.id, request: describeRequest(request), againId: JSON.stringify(again.id) },
            lines: [again.sent.line, stream.closed?.line ?? 1],
          });
      }
    }
    return judged(
      cases,
      supported
        ? 'the client resumed no stream'
        : 'no stream broke before its answer and was followed by the call sent again, so nothing showed what the client does',
      (count) =>
        supported
          ? `${count} resumption(s), which ${revision} allows`
          : `the client sent each of ${count} lost call(s) again under a new id, never resuming`,
    );
  },
});
