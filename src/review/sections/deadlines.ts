import { emitsProgress, servesHttp } from '../../policy/predicates.js';
import { HOST_LIMITS } from '../../spec/host-limits.js';
import type { ReviewContext } from '../review-context.js';
import type { ChecklistLine, Section } from '../review-types.js';

/** The two clocks, what progress and keep-alive do to them, and how they sit against the limits hosts apply. */
export function deadlines(context: ReviewContext): Section {
  const { operation, checklist } = context;
  const timeouts = operation.timeouts ?? {};
  const idle = timeouts.idleMs;
  const max = timeouts.maxMs;
  const lines: ChecklistLine[] = [
    checklist.line(
      idle === undefined
        ? 'no idle timeout'
        : `idle timeout ${idle} ms${timeouts.resetIdleOnProgress ? ', reset by progress' : ', not reset by progress'}`,
      ['deadline-idle-required'],
    ),
    checklist.line(
      max === undefined
        ? 'no maximum timeout: progress can keep the request open for ever'
        : `maximum timeout ${max} ms from the start of the request; ${timeouts.resetMaxOnProgress ? 'progress resets it too' : 'progress never extends it'}`,
      ['deadline-max-required', 'deadline-max-at-least-idle', 'deadline-progress-resets-idle-only'],
    ),
  ];
  if (emitsProgress(operation)) {
    const interval = operation.progress?.minIntervalMs;
    lines.push(
      checklist.line(
        interval === undefined
          ? 'progress comes as often as the work reports it'
          : `progress at most every ${interval} ms${idle === undefined ? '' : `, ${interval < idle ? 'inside' : 'not inside'} the ${idle} ms idle window`}`,
        ['progress-interval-below-idle'],
      ),
    );
  }
  if (servesHttp(operation, context.server)) {
    lines.push(
      checklist.line(
        timeouts.keepaliveCountsAsActivity
          ? 'SSE keep-alive comments reset the idle clock'
          : 'SSE keep-alive comments are transport traffic, not activity',
        ['deadline-keepalive-not-activity'],
      ),
    );
  }
  lines.push(
    checklist.line(
      timeouts.cancelOnTimeout === false
        ? 'on a timeout the client stops waiting without cancelling'
        : "on a timeout the client cancels with the transport's signal and stops waiting",
      ['deadline-cancel-on-timeout'],
    ),
  );
  const limits = context.transports.map((transport) => `${HOST_LIMITS.idleMs[transport] / 60_000} min idle on ${transport}`).join(', ');
  lines.push(
    checklist.line(
      `hosts allow ${limits} and move calls past ${HOST_LIMITS.backgroundAfterMs / 60_000} min into the background` +
        `${operation.task?.used === true ? '; this operation runs as a Task' : ''}`,
      ['deadline-long-suggests-task'],
    ),
  );
  return { lines };
}
