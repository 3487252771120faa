import { missingSseHeaders, sseHeaders as requiredSseHeaders } from '../../reference/recovery.js';
import { getNotAllowed } from '../check-declarations/get-405.js';
import { sseHeaders } from '../check-declarations/sse-headers.js';
import { messagesOf } from '../check-message.js';
import { type CheckOutcome, judged } from '../probe-types.js';
import { SSE_CONTENT_TYPE } from '../../protocol/http-headers.js';

const sseMessage = messagesOf(sseHeaders);
const getMessage = messagesOf(getNotAllowed);

/** What the SSE headers check recorded: the request it streamed (the long tool, or tools/list), and its response headers. */
export interface SseHeadersRun {
  /** The long tool called, or undefined when the probe asked for tools/list. */
  readonly tool?: string;
  /** The response headers (names in lower case), or undefined when no response came. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Why no response came, when the transport says. */
  readonly why?: string;
}

/** Judges the headers of a streamed response: text/event-stream, no-cache and X-Accel-Buffering: no. Pure. */
export function judgeSseHeaders(run: SseHeadersRun): CheckOutcome<never> {
  const headers = run.headers;
  if (headers === undefined) return judged('fail', sseMessage('noResponse', { why: run.why ?? 'no headers' }));
  const type = headers['content-type'] ?? '';
  if (!type.startsWith(SSE_CONTENT_TYPE)) {
    const contentType = type || 'no content type';
    return judged(
      'inconclusive',
      run.tool === undefined
        ? sseMessage('listNotStreamed', { contentType })
        : sseMessage('toolNotStreamed', { tool: run.tool, contentType }),
    );
  }
  const missing = missingSseHeaders(headers);
  const shown = Object.keys(requiredSseHeaders())
    .map((name) => `${name}: ${headers[name.toLowerCase()] ?? '(absent)'}`)
    .join('; ');
  if (missing.length > 0) return judged('fail', sseMessage('missing', { missing: missing.join(', ') }), [shown]);
  return judged('pass', sseMessage('present', {}), [shown]);
}

/** What a GET on the endpoint got: its status and headers, or why it failed. */
export type GetAnswer = { readonly status: number; readonly headers: Readonly<Record<string, string>> } | { readonly failed: string };

/** Judges a GET on the endpoint of a revision that takes POST only: 405. Pure. */
export function judgeGet(answer: GetAnswer): CheckOutcome<never> {
  if ('failed' in answer) return judged('fail', getMessage('getFailed', { why: answer.failed }));
  return answer.status === 405
    ? judged('pass', getMessage('answered405', {}))
    : judged('fail', getMessage('otherStatus', { status: answer.status }), [
        `content-type: ${answer.headers['content-type'] ?? '(absent)'}`,
      ]);
}
