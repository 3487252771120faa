import { bufferCapacityOf, streamsEvents } from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { Section } from '../review-types.js';

const OVERFLOW = {
  'coalesce-then-drop-oldest': 'coalesce progress of one token, then drop the oldest progress',
  'drop-oldest': 'drop the oldest progress',
  'drop-newest': 'drop the newest progress',
  block: 'block the producer',
  unbounded: 'grow without bound',
} as const;

/** The queue between a fast producer and a slow consumer: its bound, what it drops, and what it never drops. */
export function flowControl(context: ReviewContext): Section {
  const { operation, checklist } = context;
  if (!streamsEvents(operation)) return { lines: [checklist.line('no progress or stream events to queue', [])] };
  const flow = operation.flowControl ?? {};
  const capacity = bufferCapacityOf(operation);
  const overflow = flow.progressBuffer?.overflow;
  return {
    lines: [
      checklist.line(
        capacity === null
          ? `queue capacity ${overflow === 'unbounded' ? 'unbounded' : 'not declared (unbounded)'}`
          : `queue capacity ${capacity}`,
        ['flow-capacity-explicit'],
      ),
      checklist.line(`when full: ${OVERFLOW[overflow ?? 'unbounded']}${overflow === undefined ? ' (not declared)' : ''}`, [
        'flow-drop-oldest',
        'flow-coalesce-progress',
      ]),
      checklist.line(flow.preserveFinal === true ? 'final responses are never dropped' : 'final responses may be dropped', [
        'flow-preserve-final',
      ]),
      checklist.line(flow.refetchOnDrop === true ? 'a lossy stream is marked for a refetch' : 'losses are silent (no refetch mark)', [
        'flow-refetch-on-drop',
      ]),
    ],
  };
}
