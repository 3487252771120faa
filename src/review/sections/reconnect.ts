import { losesStateOnDrop, reconnects, retryClassOf, servesHttp } from '../../policy/predicates.js';
import { reconnectPlan } from '../../reference/recovery.js';
import type { ReviewContext } from '../review-context.js';
import type { ChecklistLine, Section } from '../review-types.js';
import { describeBackoff } from './retry.js';

const IN_FLIGHT = {
  'resend-with-new-id': 're-issued with a new id (SAFE)',
  'reconcile-then-resend-with-same-key': 'reconciled by key, then re-sent with the same key only if nothing committed (CONDITIONAL)',
  'reconcile-only': 'never replayed automatically: reconciled first (UNSAFE)',
  none: 'nothing was in flight',
} as const;

/** What the client does after its stream or connection breaks: the new request, the refetch, the request in flight, the backoff. */
export function reconnect(context: ReviewContext): Section {
  const { operation, checklist, facts } = context;
  const recovery = operation.recovery ?? {};
  const classification = retryClassOf(operation).classification;
  const plan = reconnectPlan({
    specVersion: context.specVersion,
    previousRequestId: 'r1',
    affected: recovery.refetch ?? [],
    inFlight: classification,
  });
  const lines: ChecklistLine[] = [];
  if (servesHttp(operation, context.server)) {
    const newId = recovery.reconnect?.newRequestId === true;
    lines.push(
      checklist.line(
        `after a broken HTTP stream: ${newId ? `re-issue as a new request (${plan.newRequestId})` : 're-issue with the old id (a new id is not declared)'}`,
        ['recovery-new-request-id'],
      ),
    );
    const lastEventId = recovery.reconnect?.sendLastEventId === true;
    lines.push(
      checklist.line(
        lastEventId
          ? `resumes with Last-Event-ID${facts['last-event-id-resumption'].value ? '' : `, which ${context.specVersion} does not support`}`
          : 'no Last-Event-ID',
        ['recovery-no-last-event-id'],
      ),
    );
  }
  if (context.transports.includes('stdio'))
    lines.push(checklist.line('after a broken stdio connection: a new session, the request re-issued in it', []));
  lines.push(
    losesStateOnDrop(operation)
      ? checklist.line(plan.refetch.length > 0 ? `refetch: ${plan.refetch.join('; ')}` : 'refetch: nothing listed', [
          'recovery-refetch-list',
        ])
      : checklist.line('nothing to refetch: a read is simply issued again', ['recovery-refetch-list']),
  );
  lines.push(
    checklist.line(
      `the request in flight is ${IN_FLIGHT[plan.inFlight]}` +
        (recovery.replayUnsafeMutations === true && classification === 'UNSAFE'
          ? ' — but the policy replays unsafe mutations automatically'
          : ''),
      ['recovery-no-unsafe-replay'],
    ),
  );
  if (reconnects(operation, context.server))
    lines.push(checklist.line(`reconnect backoff: ${describeBackoff(recovery.reconnect?.backoff)}`, ['recovery-backoff']));
  return { lines };
}
