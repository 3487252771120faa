import { missingSseHeaders } from '../../reference/recovery.js';
import { defineJudge, type ObservedCase } from '../define-judge.js';
import { streamsHidden } from '../http-streams.js';
import type { SessionStream } from '../session-transcript.js';
import { SSE_CONTENT_TYPE } from '../../protocol/http-headers.js';

function isSse(stream: SessionStream): boolean {
  return (stream.response?.headers['content-type'] ?? '').toLowerCase().startsWith(SSE_CONTENT_TYPE);
}

const MESSAGES = {
  'headers-missing': 'the SSE response of {{stream}} lacks {{missing}}',
  'headers-present': 'the SSE response of {{stream}} has all three headers',
} as const;

/**
 * Every SSE response carries `Content-Type: text/event-stream`, `Cache-Control: no-cache` and `X-Accel-Buffering: no`:
 * without them a proxy or a CDN on the way may hold the events back, and progress reaches the client only with the
 * answer. Judged on each SSE response the session saw.
 */
export const serverSseHeaders = defineJudge({
  id: 'server-sse-headers',
  party: 'server',
  description: 'Every SSE response carries Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no.',
  rests: {
    lesson: 'Streamable HTTP',
    says: 'without no-cache and X-Accel-Buffering: no a proxy on the way may hold the events back, so progress arrives only with the answer',
  },
  fix: 'Send Content-Type: text/event-stream, Cache-Control: no-cache and X-Accel-Buffering: no on every SSE response.',
  messages: MESSAGES,
  observe(session, _options, { head, judged }) {
    const hidden = streamsHidden(session, head);
    if (hidden !== undefined) return hidden;
    const cases: ObservedCase<typeof MESSAGES>[] = [];
    for (const stream of session.transcript.streams ?? []) {
      const response = stream.response;
      if (response === undefined || !isSse(stream)) continue;
      const missing = missingSseHeaders(response.headers);
      cases.push(
        missing.length > 0
          ? {
              status: 'fail',
              messageId: 'headers-missing',
              data: { stream: stream.id, missing: missing.join(', ') },
              lines: [response.line],
            }
          : { status: 'pass', messageId: 'headers-present', data: { stream: stream.id }, lines: [response.line] },
      );
    }
    return judged(cases, 'the server sent no SSE response', (count) => `each of ${count} SSE response(s) had the three headers`);
  },
});
