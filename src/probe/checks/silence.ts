import type { ProbeContext } from '../probe-types.js';
import type { ProbedSession } from '../sdk-behaviours.js';
import type { SentNotification } from '../connection.js';
import { pause, workRunning } from './observe.js';

/** The session as a silence's judgement reads it: transport, whether the server gave a session, revision. */
export function probedSession(context: ProbeContext): ProbedSession {
  const connection = context.session.connection;
  return { transport: connection.transport, hasSession: connection.sessionId !== undefined, revision: context.revision };
}

/**
 * What a check that cancels recorded beside its cancelled call, as `judgeSilence` reads it: the session, the answer to
 * its cancellation notification, and the status tool with what it counted (the same for every check that cancels).
 */
export function silenceRecord(
  context: ProbeContext,
  notification: SentNotification | undefined,
  running: number | undefined,
): { session: ProbedSession; answer?: string; workStatus?: { tool: string; running?: number } } {
  const tool = context.plan.workStatus?.tool;
  return {
    session: probedSession(context),
    ...(notification?.answer === undefined ? {} : { answer: notification.answer.text }),
    ...(tool === undefined ? {} : { workStatus: { tool, ...(running === undefined ? {} : { running }) } }),
  };
}

/**
 * Watches a cancelled request for `watchMs`; with a status tool, asks it once, early enough that work which ignores
 * the cancellation would still be running (half the run's rest, within the grace period).
 */
export async function watchWork(
  context: ProbeContext,
  before: { active: number } | { unreadable: string } | undefined,
  watchMs: number,
  restMs: number | undefined,
  ownRuns: () => number | undefined = () => 0,
): Promise<{ watched: number; running?: number; text?: string }> {
  if (before === undefined) return { watched: await pause(context, watchMs) };
  const tool = context.plan.workStatus!.tool;
  if ('unreadable' in before)
    return { watched: await pause(context, watchMs), text: `the status tool could not be read: ${before.unreadable}` };
  if (before.active < 1)
    return {
      watched: await pause(context, watchMs),
      text: `${tool} said ${before.active} running while the request was in flight: it does not show this work, so it was not asked again`,
    };
  // Late enough for a server that stops at its next checkpoint (one gap between messages, plus the allowance), early
  // enough that work which ignores the cancellation would still run (half the run's rest).
  const checkpoint = (context.measured.longToolGapMs ?? 0) + context.session.inFlightMs;
  const askAt = Math.max(100, checkpoint, Math.min(context.plan.graceMs, (restMs ?? context.plan.graceMs * 2) / 2));
  if (restMs !== undefined && askAt >= restMs)
    return {
      watched: await pause(context, watchMs),
      text: `${tool} was not asked: the run would end (in ${restMs} ms) before a server that stops at its next checkpoint could show it`,
    };
  const started = Date.now();
  await pause(context, Math.min(askAt, watchMs));
  const asked = await workRunning(context);
  const own = ownRuns();
  const after =
    'unreadable' in asked
      ? asked
      : own === undefined
        ? { unreadable: "the probe's own run beside it had shown no work yet, so whether the status counts it cannot be told" }
        : { active: Math.max(0, asked.active - own) };
  const watched = Date.now() - started + (await pause(context, Math.max(0, watchMs - (Date.now() - started))));
  if ('unreadable' in after) return { watched, text: `the status tool could not be read after the cancellation: ${after.unreadable}` };
  return {
    watched,
    running: after.active,
    text:
      `${tool} said ${before.active} running before the cancellation and ${after.active} about ${Math.round(askAt)} ms after it` +
      (own === 0 || own === undefined ? '' : ` (not counting the probe's own run beside it)`),
  };
}
