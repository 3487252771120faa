import { factsOf } from '../../spec/revision-facts.js';
import type { Call } from '../connection.js';
import { outcome, type ProbeCheck, since, watchAfterCancel } from '../probe-types.js';
import { isResponse } from '../received.js';
import { describeMessage, healthy, pause } from './observe.js';

/**
 * Cancel a long request mid-flight with the transport's signal; afterwards nothing more may come for it — on
 * its own stream, on another request's stream, or as an answer to the cancellation. Messages that reach the
 * probe within the in-flight allowance after the cancellation was written crossed it on the wire and are allowed.
 */
export const cancelBeforeCompletion: ProbeCheck = {
  id: 'cancel-before-completion',
  title: 'cancellation before completion: no response and no further message afterwards',
  basis:
    'the receiver SHOULD stop and send no response (both revisions); where closing the HTTP stream is the cancellation, ' +
    'the server MUST NOT send further messages',
  async run(context) {
    const tool = context.plan.longTool;
    if (tool === undefined) return outcome('skip', `no long-running tool to cancel: ${context.plan.noLongTool}`);
    if (context.measured.longToolBroken !== undefined) return outcome('skip', `not run: ${context.measured.longToolBroken}`);
    const session = context.session;
    const call = await session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner);
    const first = await call.inbox.next(() => true, Math.min(1500, context.plan.requestTimeoutMs));
    if (first !== undefined && isResponse(first.message))
      return outcome(
        'skip',
        `${tool.name} answered ${since(call, first)} ms after the request, before a cancellation could be sent: give it longer work with --arguments`,
      );
    const ended = first === undefined ? call.inbox.why : undefined;
    if (ended !== undefined) {
      await session.giveUp(call, ended, context.owner);
      return outcome('fail', `the request ended before it could be cancelled: ${ended}`);
    }
    const { signal, notification } = await session.cancel(call, 'mcprely probe: cancel before completion', context.owner);
    const cancelledAfter = Math.round(call.cancelledAt! - call.sentAt);
    const details = [
      `cancelled ${cancelledAfter} ms after the request, ` +
        `${first === undefined ? 'with no message from the server yet' : `after ${describeMessage(call, first)}`}, ` +
        `with ${signal === 'close-stream' ? 'the closing of the response stream' : 'notifications/cancelled'}`,
    ];
    // Where the closed stream is the cancellation, a second request's stream must not carry the first one's messages.
    const witness =
      signal === 'close-stream' && factsOf(context.revision)['request-scoped-notifications'].value === 'originating-stream'
        ? await session.call('tools/call', { name: tool.name, arguments: tool.arguments }, true, context.owner)
        : undefined;
    const watched = await pause(context, watchAfterCancel(context, cancelledAfter));
    witness?.closeStream();
    details.push(
      `watched ${watched} ms for anything more about request ${call.id}` +
        `${context.measured.longToolMs === undefined ? '' : ` (uncancelled, the tool takes ${context.measured.longToolMs} ms)`}` +
        `${witness === undefined ? '' : `, with request ${witness.id} open beside it`}`,
    );
    details.push(
      `in-flight allowance: ${session.inFlightMs} ms after the cancellation (twice the slowest round trip measured, within 100 ms to 1 s); ` +
        `${call.inbox.heldUpMs === 0 ? '' : `plus ${call.inbox.heldUpMs} ms the probe itself was held up; `}` +
        `${call.inbox.crossedCancellation} message(s) crossed it on the wire`,
    );
    const problems = violations(call, notification?.answer?.text);
    const sick = await healthy(context);
    if (sick !== undefined) problems.push(sick);
    const watch = { calls: [call], notifications: notification === undefined ? [] : [notification] };
    if (problems.length > 0) return outcome('fail', problems[0]!, [...problems.slice(1), ...details], watch);
    return outcome(
      'pass',
      `nothing for request ${call.id} in the ${watched} ms after the cancellation; the server still answers`,
      details,
      watch,
    );
  },
};

/** What the server sent about a cancelled request after the allowance, on any stream, and any answer to the cancellation. */
export function violations(call: Call, answer: string | undefined): string[] {
  const problems: string[] = [];
  const inbox = call.inbox;
  const elsewhere = inbox.onOtherStreams.filter((received) => call.cancelledAt !== undefined && received.at >= call.cancelledAt);
  if (elsewhere.length > 0) {
    const stream = elsewhere[0]!.stream;
    problems.push(
      `the server kept writing for the cancelled request ${call.id} on the response stream of request ${stream}: ` +
        elsewhere.map((received) => describeMessage(call, received)).join(', '),
    );
  }
  if (inbox.afterSilenceCount > 0) {
    const shown = inbox.afterSilence.map((received) => describeMessage(call, received)).join(', ');
    problems.push(
      `the server sent ${inbox.afterSilenceCount > inbox.afterSilence.length ? `${inbox.afterSilenceCount} messages, first ` : ''}` +
        `${shown} after the cancellation`,
    );
  }
  if (answer !== undefined) problems.push(`the server answered the cancellation (a notification gets no response): ${answer}`);
  return problems;
}
