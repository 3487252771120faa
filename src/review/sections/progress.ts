import { emitsProgress, isListenStream } from '../../policy/predicates.js';
import type { ReviewContext } from '../review-context.js';
import type { Section } from '../review-types.js';

/** Progress notifications: who sends them, that they increase and stop, and their rate limit. */
export function progress(context: ReviewContext): Section {
  const { operation, checklist } = context;
  if (!emitsProgress(operation)) {
    return {
      lines: [
        checklist.line(isListenStream(operation) ? 'sends stream notifications, no progress' : 'sends no progress', ['progress-sender']),
      ],
    };
  }
  const declared = operation.progress ?? {};
  return {
    lines: [
      checklist.line(
        'sends notifications/progress for a request that carries a progressToken' +
          (operation.direction === 'server-to-client' ? " (the client answering the server's request sends it)" : ''),
        ['progress-sender'],
      ),
      checklist.line(declared.monotonic === false ? 'progress values may repeat or go back' : 'progress values strictly increase', [
        'progress-monotonic',
      ]),
      checklist.line(
        declared.stopsOnCompletion === false || declared.stopsOnCancellation === false
          ? 'progress may continue after the request ended'
          : 'progress stops at the response and at a cancellation',
        ['progress-stops'],
      ),
      checklist.line(
        declared.minIntervalMs === undefined ? 'no rate limit' : `rate limit: one notification per ${declared.minIntervalMs} ms`,
        ['progress-rate-limit'],
      ),
    ],
  };
}
