import { sseHeaders as sseHeadersDeclared } from '../check-declarations/sse-headers.js';
import { getNotAllowed as getNotAllowedDeclared } from '../check-declarations/get-405.js';
import { missingSseHeaders, sseHeaders as requiredSseHeaders } from '../../reference/recovery.js';
import { factsOf } from '../../spec/revision-facts.js';
import { HttpConnection } from '../http-connection.js';
import { outcome, type ProbeCheck } from '../probe-types.js';
import { SSE_CONTENT_TYPE } from '../../protocol/http-headers.js';
import { METHODS } from '../../protocol/methods.js';

/** An SSE response carries the headers that keep proxies from buffering it. */
export const sseHeaders: ProbeCheck<'sse-headers'> = {
  ...sseHeadersDeclared,
  async run(context) {
    if (!(context.session.connection instanceof HttpConnection)) return outcome('not-observable', 'stdio has no HTTP headers to see');
    const tool = context.measured.longToolBroken === undefined ? context.plan.longTool : undefined;
    const call =
      tool === undefined
        ? await context.session.call(METHODS.toolsList, {}, false, context.owner)
        : await context.session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const headers = call.headers ?? {};
    // Only the headers were wanted: the probe stops reading and cancels the work with the revision's signal.
    call.closeStream();
    await context.session.giveUp(call, 'only the response headers were needed', context.owner);
    if (call.headers === undefined) return outcome('fail', `the request got no response: ${call.inbox.why ?? 'no headers'}`);
    const type = headers['content-type'] ?? '';
    if (!type.startsWith(SSE_CONTENT_TYPE)) {
      return outcome(
        'inconclusive',
        `the server answered ${tool === undefined ? 'tools/list' : tool.name} with ${type || 'no content type'}, not an SSE stream: no SSE headers to judge; ` +
          (tool === undefined ? 'name a long-running tool with --operation so the server streams' : 'the server chose a JSON response'),
      );
    }
    const missing = missingSseHeaders(headers);
    const shown = Object.keys(requiredSseHeaders())
      .map((name) => `${name}: ${headers[name.toLowerCase()] ?? '(absent)'}`)
      .join('; ');
    if (missing.length > 0) return outcome('fail', `the SSE response lacks ${missing.join(', ')}`, [shown]);
    return outcome('pass', 'all three headers present', [shown]);
  },
};

/** Where the revision takes POST only, a GET on the endpoint gets 405. */
export const getNotAllowed: ProbeCheck<'get-405'> = {
  ...getNotAllowedDeclared,
  async run(context) {
    const connection = context.session.connection;
    if (!(connection instanceof HttpConnection)) return outcome('not-observable', 'stdio has no HTTP endpoint to send a GET to');
    if (factsOf(context.revision)['http-get'].value !== 'method-not-allowed')
      return outcome(
        'not-observable',
        `on ${context.revision} a GET may open a stream or answer 405: either is right, so no answer could show a defect`,
      );
    const answer = await connection.get();
    if ('failed' in answer) return outcome('fail', answer.failed);
    return answer.status === 405
      ? outcome('pass', 'GET answered 405')
      : outcome('fail', `GET answered ${answer.status}, not 405`, [`content-type: ${answer.headers['content-type'] ?? '(absent)'}`]);
  },
};
