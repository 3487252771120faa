import { getNotAllowed as getNotAllowedDeclared } from '../check-declarations/get-405.js';
import { sseHeaders as sseHeadersDeclared } from '../check-declarations/sse-headers.js';
import { messagesOf } from '../check-message.js';
import { factsOf } from '../../spec/revision-facts.js';
import { HttpConnection } from '../http-connection.js';
import { judged, type ProbeCheck } from '../probe-types.js';
import { judgeGet, judgeSseHeaders } from './http-transport-judgement.js';
import { METHODS } from '../../protocol/methods.js';

const sseMessage = messagesOf(sseHeadersDeclared);
const getMessage = messagesOf(getNotAllowedDeclared);

/** Reads the headers of a streamed response (the long tool's, else tools/list's) and stops there; `judgeSseHeaders` judges them. */
export const sseHeaders: ProbeCheck<'sse-headers'> = {
  ...sseHeadersDeclared,
  async run(context) {
    if (!(context.session.connection instanceof HttpConnection)) return judged('not-observable', sseMessage('stdio', {}));
    const tool = context.measured.longToolBroken === undefined ? context.plan.longTool : undefined;
    const call =
      tool === undefined
        ? await context.session.call(METHODS.toolsList, {}, false, context.owner)
        : await context.session.call(METHODS.toolsCall, { name: tool.name, arguments: tool.arguments }, true, context.owner);
    // The headers as they were when the request was sent (a response that came meanwhile has none to judge).
    const headers = call.headers ?? {};
    // Only the headers were wanted: the probe stops reading and cancels the work with the revision's signal.
    call.closeStream();
    await context.session.giveUp(call, 'only the response headers were needed', context.owner);
    const why = call.headers === undefined ? call.inbox.why : undefined;
    return judgeSseHeaders({
      ...(tool === undefined ? {} : { tool: tool.name }),
      ...(call.headers === undefined ? {} : { headers }),
      ...(why === undefined ? {} : { why }),
    });
  },
};

/** Where the revision takes POST only, sends a GET to the endpoint; `judgeGet` judges the answer. */
export const getNotAllowed: ProbeCheck<'get-405'> = {
  ...getNotAllowedDeclared,
  async run(context) {
    const connection = context.session.connection;
    if (!(connection instanceof HttpConnection)) return judged('not-observable', getMessage('stdio', {}));
    if (factsOf(context.revision)['http-get'].value !== 'method-not-allowed')
      return judged('not-observable', getMessage('eitherAllowed', { revision: context.revision }));
    return judgeGet(await connection.get());
  },
};
