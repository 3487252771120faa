import { formatMessage } from '../../document/message-template.js';
import type { ResolvedOperation } from '../../manifest/resolved-operation.js';
import { servesHttp } from '../../policy/predicates.js';
import { compileField } from '../target.js';
import type { RuleFunction } from './rule-function.js';

const keepaliveField = compileField('http.keepaliveMs');
const proxyIdleField = compileField('http.proxyIdleTimeoutMs');

/**
 * server.http.keepaliveMs comes more often than the proxy's idle timeout, where that matters: some operation
 * served over Streamable HTTP may stay silent longer than the proxy waits (its idle timeout, defaults merged,
 * is not set, 0, or above the proxy's). When every such operation's idle timeout is at or below the proxy's,
 * the client's own idle clock ends a silent stream before the proxy would, and nothing is reported. A proxy
 * idle timeout of 0 is none (the rule's `when`); a keep-alive interval of 0 sends none.
 */
export const keepaliveBelowProxyIdle: RuleFunction = (target, context) => {
  const proxyIdle = proxyIdleField.read(target);
  if (typeof proxyIdle !== 'number' || proxyIdle <= 0) return [];
  const keepalive = keepaliveField.read(target);
  const sendsNone = typeof keepalive !== 'number' || keepalive <= 0;
  if (!sendsNone && keepalive < proxyIdle) return [];
  const server = target.manifest.manifest.server;
  const silent = target.manifest.operations
    .filter((operation) => servesHttp(operation.spec, server))
    .flatMap((operation) => {
      const why = silenceAllowed(operation, proxyIdle);
      return why === undefined ? [] : [{ name: operation.own.name, why }];
    });
  if (silent.length === 0) return [];
  const first = silent[0]!;
  const others = silent.length - 1;
  const data = context.messageData({
    field: keepaliveField.text,
    value: keepalive === undefined ? 'not set' : String(keepalive),
    expected: `< ${proxyIdleField.text} (${proxyIdle})`,
    other: proxyIdle,
    keepalive:
      keepalive === undefined
        ? 'the server sends no SSE keep-alive (server.http.keepaliveMs)'
        : sendsNone
          ? `the server sends no SSE keep-alive (server.http.keepaliveMs is ${keepalive})`
          : `keep-alives come only every ${keepalive} ms`,
    silent: others === 0 ? first.name : `${first.name} (and ${others} other operation${others === 1 ? '' : 's'})`,
    silence: first.why,
  });
  return [
    {
      // `missing` and `too-slow`: the messageIds of the rule's two checks before it was a function (baselines and SARIF keep them).
      messageId: sendsNone ? 'missing' : 'too-slow',
      message: formatMessage(context.definition.message, data),
      fix: context.definition.fix,
      severity: context.severity,
      place: keepaliveField.place(target),
      at: 'value',
      data,
    },
  ];
};

/** Why an operation's request may stay silent longer than the proxy waits, or undefined when its idle timeout ends it first. */
function silenceAllowed(operation: ResolvedOperation, proxyIdle: number): string | undefined {
  const idle = operation.read(['timeouts', 'idleMs']);
  if (typeof idle !== 'number') return 'it sets no timeouts.idleMs';
  return idle === 0 || idle > proxyIdle ? `its timeouts.idleMs is ${idle}` : undefined;
}
